// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDIT_PACKS } from '../../../functions/domain/packs';
import { PricingPage } from '../../../frontend/src/features/pricing/components/PricingPage';
import type * as ApiModule from '../../../frontend/src/lib/api-client';
import { ApiError, apiFetch } from '../../../frontend/src/lib/api-client';
import { auth } from './auth-mock';
import { renderAt } from './render';

const mocks = vi.hoisted(() => ({
  toast: { info: vi.fn(), success: vi.fn(), error: vi.fn() },
  redirectTo: vi.fn(),
}));

vi.mock('../../../frontend/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof ApiModule>()),
  apiFetch: vi.fn(),
}));
vi.mock('../../../frontend/src/lib/auth', async () => (await import('./auth-mock')).authModule);
vi.mock('../../../frontend/src/components/CreditsBadge', () => ({
  CreditsBadge: () => <a href="/pricing">6 credits</a>,
}));
vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/redirect', () => ({ redirectTo: mocks.redirectTo }));

const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_123';
const apiFetchMock = vi.mocked(apiFetch);
/** The checkout-creation answer of the next click(s); a promise so a test can hold it open. */
let createSession: () => Promise<unknown>;

beforeEach(() => {
  auth.status = 'signedIn';
  createSession = async () => ({ id: 'cs_test_123', url: CHECKOUT_URL });
  apiFetchMock.mockImplementation(async (path: string) => {
    if (path === '/packs') return { packs: CREDIT_PACKS };
    if (path === '/checkout/sessions') return createSession();
    throw new Error(`unexpected call ${path}`);
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

/** The pricing page, after visiting `history` (its Back goes there; none: the page opened the visit). */
function renderPricing(history: string[] = []) {
  return renderAt('/pricing', { element: <PricingPage />, history }).router;
}

const buyButton = (credits: number) => screen.findByRole('button', { name: `Get ${credits} Credits` });

/** A checkout-session call that fails with `error`. */
const rejectWith = (error: Error) => async (): Promise<unknown> => {
  throw error;
};

/** The pricing page's purchase-failure toast. */
async function expectPurchaseFailedToast() {
  await waitFor(() =>
    expect(mocks.toast.error).toHaveBeenCalledWith('Failed to initiate purchase. Please try again.'),
  );
}

function checkoutCalls() {
  return apiFetchMock.mock.calls.filter(([path]) => path === '/checkout/sessions');
}

describe('pricing page', () => {
  it("shows the spec's header, breadcrumb, texts, three packs and trust line", async () => {
    renderPricing();

    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('button', { name: 'Back' })).toBeTruthy();
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');

    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(breadcrumb).getByText('Pricing').getAttribute('aria-current')).toBe('page');

    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Credit Pack' })).toBeTruthy();
    expect(screen.getByText('Each photo costs 1 credit')).toBeTruthy();
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

  it("shows the signed-in user's credits in the header, and none when signed out", async () => {
    renderPricing();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: '6 credits' })).toBeTruthy();
    cleanup();

    auth.status = 'signedOut';
    renderPricing();
    await buyButton(60);
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: '6 credits' })).toBeNull();
  });

  it('Back goes one step back when the previous screen is part of the app', async () => {
    const router = renderPricing(['/']);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('Back goes to /dashboard when the visit started on the pricing page', async () => {
    const router = renderPricing();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('signed out: an info toast and sign-in coming back to /pricing, without calling the API', async () => {
    auth.status = 'signedOut';
    renderPricing();

    fireEvent.click(await buyButton(40));

    expect(mocks.toast.info).toHaveBeenCalledWith('Please sign in to purchase credits');
    expect(auth.signIn).toHaveBeenCalledWith('/pricing');
    expect(checkoutCalls()).toHaveLength(0);
    expect(mocks.redirectTo).not.toHaveBeenCalled();
  });

  it("signed in: 'Processing...' on the clicked pack, every button disabled, then the same-tab redirect", async () => {
    let answer!: (value: unknown) => void;
    createSession = () => new Promise((resolve) => (answer = resolve));
    renderPricing();

    fireEvent.click(await buyButton(60));

    const processing = await screen.findByRole('button', { name: 'Processing...' });
    expect((processing as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByRole('button', { name: 'Processing...' })).toHaveLength(1);
    for (const credits of [40, 100]) {
      expect(((await buyButton(credits)) as HTMLButtonElement).disabled).toBe(true);
    }

    const [path, init] = checkoutCalls()[0]!;
    expect(path).toBe('/checkout/sessions');
    expect(init?.method).toBe('POST');
    expect(init?.body).toEqual({ packId: 'popular' });
    const key = new Headers(init?.headers).get('Idempotency-Key');
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);

    await act(async () => answer({ id: 'cs_test_123', url: CHECKOUT_URL }));

    expect(mocks.toast.success).toHaveBeenCalledWith('Redirecting to secure checkout...');
    expect(mocks.redirectTo).toHaveBeenCalledWith(CHECKOUT_URL);
    expect(mocks.toast.error).not.toHaveBeenCalled();
    // The browser is leaving: the button keeps saying so rather than inviting a second purchase.
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();
  });

  it('ignores a second click while a purchase is starting', async () => {
    createSession = () => new Promise(() => {});
    renderPricing();

    const button = await buyButton(100);
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(await buyButton(40));

    await screen.findByRole('button', { name: 'Processing...' });
    expect(checkoutCalls()).toHaveLength(1);
  });

  it('failure: the error toast, the buttons work again, and the retry sends a fresh Idempotency-Key', async () => {
    createSession = rejectWith(new ApiError(502, 'CHECKOUT_FAILED', 'Failed to create checkout session'));
    renderPricing();

    fireEvent.click(await buyButton(40));

    await expectPurchaseFailedToast();
    const button = (await buyButton(40)) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(((await buyButton(60)) as HTMLButtonElement).disabled).toBe(false);
    expect(mocks.redirectTo).not.toHaveBeenCalled();

    fireEvent.click(button);
    await waitFor(() => expect(checkoutCalls()).toHaveLength(2));
    const keys = checkoutCalls().map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('a network failure also shows the error toast', async () => {
    createSession = rejectWith(new ApiError(0, 'NETWORK_ERROR', "We couldn't reach the server."));
    renderPricing();

    fireEvent.click(await buyButton(60));

    await expectPurchaseFailedToast();
  });

  it('a 401 (session gone at the API) asks to sign in instead of showing an error', async () => {
    createSession = async () => {
      throw new ApiError(401, 'UNAUTHORIZED', 'Please sign in to continue.');
    };
    renderPricing();

    fireEvent.click(await buyButton(60));

    await waitFor(() => expect(auth.signIn).toHaveBeenCalledWith('/pricing'));
    expect(mocks.toast.info).toHaveBeenCalledWith('Please sign in to purchase credits');
    expect(mocks.toast.error).not.toHaveBeenCalled();
  });

  it('never follows a checkout URL that is not http(s)', async () => {
    createSession = async () => ({ id: 'cs_test_123', url: 'javascript:alert(1)' });
    renderPricing();

    fireEvent.click(await buyButton(60));

    await expectPurchaseFailedToast();
    expect(mocks.redirectTo).not.toHaveBeenCalled();
  });

  it('clears "Processing..." when the page comes back from the back/forward cache', async () => {
    renderPricing();
    fireEvent.click(await buyButton(60));
    await waitFor(() => expect(mocks.redirectTo).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();

    const pageshow = new Event('pageshow') as PageTransitionEvent;
    Object.defineProperty(pageshow, 'persisted', { value: true });
    act(() => void window.dispatchEvent(pageshow));

    expect(((await buyButton(60)) as HTMLButtonElement).disabled).toBe(false);
  });
});
