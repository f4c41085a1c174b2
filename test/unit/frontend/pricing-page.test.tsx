// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PricingPage } from '../../../frontend/src/features/pricing/components/PricingPage';
import { answer, apiError, held, networkError, never, requestsTo } from './api-mocks';
import { signedIn, signedOut } from './auth-session';
import { expectToast, renderAt, sessionSettled, toastsOf } from './render';

// Not the network: leaving for Stripe's page, which jsdom cannot do (lib/redirect.ts exists for this).
const redirectTo = vi.hoisted(() => vi.fn());
vi.mock('../../../frontend/src/lib/redirect', () => ({ redirectTo }));

const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_123';

beforeEach(() => {
  redirectTo.mockReset();
  // A failed purchase is logged on purpose (use-start-checkout.ts); keep the report readable.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  signedIn();
  answer('POST /api/checkout/sessions', { id: 'cs_test_123', url: CHECKOUT_URL });
});

afterEach(() => vi.restoreAllMocks());

/**
 * The pricing page, after visiting `history` (its Back goes there; none: the page opened the visit), once it knows
 * whether someone is signed in.
 */
async function renderPricing(history: string[] = []) {
  const { router } = renderAt('/pricing', { element: <PricingPage />, history });
  await sessionSettled();
  return router;
}

const buyButton = (credits: number) => screen.findByRole('button', { name: `Get ${credits} Credits` });

/** The pricing page's purchase-failure toast. */
const expectPurchaseFailedToast = () =>
  expectToast('error', 'Failed to initiate purchase. Please try again.');

const checkoutCalls = () => requestsTo('POST /api/checkout/sessions');

/** Where sign-in will return to, once the router is on `/signin`. */
async function signInReturnsTo(router: Awaited<ReturnType<typeof renderPricing>>) {
  await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
  return new URLSearchParams(router.state.location.search).get('returnTo');
}

describe('pricing page', () => {
  it("shows the spec's header, breadcrumb, texts, three packs and trust line", async () => {
    await renderPricing();

    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('button', { name: 'Back' })).toBeTruthy();
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');

    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(breadcrumb).getByText('Pricing').getAttribute('aria-current')).toBe('page');

    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Credit Pack' })).toBeTruthy();
    // From the credits a headshot costs (lib/headshot-cost.ts), high resolution included (issue 35).
    expect(screen.getByText('Each headshot costs 1 credit, or 2 in high resolution')).toBeTruthy();
    expect(screen.getByText('New users get 6 free credits to try the service!')).toBeTruthy();

    for (const credits of [40, 60, 100]) expect(await buyButton(credits)).toBeTruthy();
    expect(screen.getByText('$35')).toBeTruthy();
    expect(screen.getByText('$45')).toBeTruthy();
    expect(screen.getByText('$75')).toBeTruthy();
    expect(screen.getByText('Most Popular')).toBeTruthy();

    for (const item of [
      'Secure Payment',
      'Protected by a card payment provider',
      'Instant Access',
      'Commercial Rights',
    ]) {
      expect(screen.getByText(item)).toBeTruthy();
    }
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it("shows the signed-in user's credits and Dashboard in the header, neither when signed out", async () => {
    await renderPricing();
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: '6 credits' })).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    cleanup();

    signedOut();
    await renderPricing();
    await buyButton(60);
    const banner = within(screen.getByRole('banner'));
    expect(banner.queryByRole('link', { name: '6 credits' })).toBeNull();
    // Issue 35: the dashboard would only send a signed-out visitor to sign in.
    expect(banner.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(banner.getByRole('link', { name: 'Home' })).toBeTruthy();
  });

  it('Back goes one step back when the previous screen is part of the app', async () => {
    const router = await renderPricing(['/']);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('Back goes to /dashboard when the visit started on the pricing page', async () => {
    const router = await renderPricing();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('signed out: an info toast and sign-in coming back to /pricing, without calling the API', async () => {
    signedOut();
    const router = await renderPricing();

    fireEvent.click(await buyButton(40));

    await expectToast('info', 'Please sign in to purchase credits');
    expect(await signInReturnsTo(router)).toBe('/pricing');
    expect(checkoutCalls()).toHaveLength(0);
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it("signed in: 'Processing...' on the clicked pack, every button disabled, then the same-tab redirect", async () => {
    const checkout = held<'POST /api/checkout/sessions'>();
    answer('POST /api/checkout/sessions', checkout.reply);
    await renderPricing();

    fireEvent.click(await buyButton(60));

    const processing = await screen.findByRole('button', { name: 'Processing...' });
    expect((processing as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByRole('button', { name: 'Processing...' })).toHaveLength(1);
    for (const credits of [40, 100]) {
      expect(((await buyButton(credits)) as HTMLButtonElement).disabled).toBe(true);
    }

    await waitFor(() => expect(checkout.sent).toBe(true));
    const [request] = checkoutCalls();
    expect(request!.body).toEqual({ packId: 'popular' });
    expect(request!.headers.get('Idempotency-Key')).toMatch(/^[A-Za-z0-9_-]{8,128}$/);

    await act(async () => checkout.send({ id: 'cs_test_123', url: CHECKOUT_URL }));

    await expectToast('success', 'Redirecting to secure checkout...');
    expect(redirectTo).toHaveBeenCalledWith(CHECKOUT_URL);
    expect(toastsOf('error')).toEqual([]);
    // The browser is leaving: the button keeps saying so rather than inviting a second purchase.
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();
  });

  it('ignores a second click while a purchase is starting', async () => {
    answer('POST /api/checkout/sessions', never);
    await renderPricing();

    const button = await buyButton(100);
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(await buyButton(40));

    await screen.findByRole('button', { name: 'Processing...' });
    await waitFor(() => expect(checkoutCalls()).toHaveLength(1));
    expect(checkoutCalls()).toHaveLength(1);
  });

  it('failure: the error toast, the buttons work again, and the retry sends a fresh Idempotency-Key', async () => {
    answer(
      'POST /api/checkout/sessions',
      apiError(502, 'CHECKOUT_FAILED', 'Failed to create checkout session'),
    );
    await renderPricing();

    fireEvent.click(await buyButton(40));

    await expectPurchaseFailedToast();
    const button = (await buyButton(40)) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(((await buyButton(60)) as HTMLButtonElement).disabled).toBe(false);
    expect(redirectTo).not.toHaveBeenCalled();

    fireEvent.click(button);
    await waitFor(() => expect(checkoutCalls()).toHaveLength(2));
    const keys = checkoutCalls().map((request) => request.headers.get('Idempotency-Key'));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('a network failure also shows the error toast', async () => {
    answer('POST /api/checkout/sessions', networkError);
    await renderPricing();

    fireEvent.click(await buyButton(60));

    await expectPurchaseFailedToast();
  });

  it('a 401 (session gone at the API) asks to sign in instead of showing an error', async () => {
    answer('POST /api/checkout/sessions', apiError(401, 'UNAUTHORIZED', 'Please sign in to continue.'));
    const router = await renderPricing();

    fireEvent.click(await buyButton(60));

    expect(await signInReturnsTo(router)).toBe('/pricing');
    await expectToast('info', 'Please sign in to purchase credits');
    expect(toastsOf('error')).toEqual([]);
  });

  it('never follows a checkout URL that is not http(s)', async () => {
    // Sent as is (a raw Response): the contract itself refuses such a URL, and the page must not trust the answer.
    answer('POST /api/checkout/sessions', Response.json({ id: 'cs_test_123', url: 'javascript:alert(1)' }));
    await renderPricing();

    fireEvent.click(await buyButton(60));

    await expectPurchaseFailedToast();
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('clears "Processing..." when the page comes back from the back/forward cache', async () => {
    await renderPricing();
    fireEvent.click(await buyButton(60));
    await waitFor(() => expect(redirectTo).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();

    const pageshow = new Event('pageshow') as PageTransitionEvent;
    Object.defineProperty(pageshow, 'persisted', { value: true });
    act(() => void window.dispatchEvent(pageshow));

    expect(((await buyButton(60)) as HTMLButtonElement).disabled).toBe(false);
  });
});
