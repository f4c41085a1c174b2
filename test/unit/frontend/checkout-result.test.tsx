// @vitest-environment jsdom
import type { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../frontend/src/lib/api/get-me';
import { checkoutVerificationQueryKey } from '../../../frontend/src/features/checkout/api/verify-checkout-session';
import { PaymentResultPage } from '../../../frontend/src/features/checkout/components/PaymentResultPage';
import { CheckoutCancelledPage } from '../../../frontend/src/features/checkout/components/CheckoutCancelledPage';
import { answer, apiError, held, meOf, networkError, never, requestsTo, type Responder } from './api-mocks';
import { sessionLoading, signedIn, signedOut } from './auth-session';
import { expectToast, renderAt, testConfig, toastsOf } from './render';

const SUPPORT = testConfig.supportEmail;

const FAILED_TEXT = "We couldn't verify your payment. Please contact our support team for assistance.";
let sessionCounter = 0;
/** A session id no other test used: the page acts on each session's outcome once per page load. */
const newSessionId = () => `cs_test_unit${++sessionCounter}_${Math.random().toString(36).slice(2, 8)}`;

beforeEach(() => {
  sessionStorage.clear();
  signedIn();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** How `GET /api/checkout/sessions/{id}` answers the page's verification. */
const verifyAnswers = (respond: Responder<'GET /api/checkout/sessions/{id}'>) =>
  answer('GET /api/checkout/sessions/{id}', respond);

/** The payment result page at `path` (any path starting with /success), after a visit to the landing page. */
function renderResult(
  path: string,
  { strict = false, seed }: { strict?: boolean; seed?: (client: QueryClient) => void } = {},
) {
  return renderAt(path, {
    element: <PaymentResultPage />,
    route: '*',
    history: ['/'],
    strict,
    seed: (queryClient) => {
      queryClient.setQueryData(['me', 'user-1'], meOf());
      seed?.(queryClient);
    },
  });
}

const verificationCalls = () => requestsTo('GET /api/checkout/sessions/{id}');

/** The not-completed card: nothing charged, and the Popular Pack offered again. */
async function notCompletedWithThePopularPack() {
  const heading = await screen.findByRole('heading', { level: 1, name: 'Payment not completed' });
  const section = heading.closest('section')!;
  expect(within(section).getByText('You have not been charged.')).toBeTruthy();
  expect(
    await within(section).findByRole('button', { name: 'Try again with the Popular Pack' }),
  ).toBeTruthy();
  return { heading, section };
}

function expectSupportLine() {
  const link = screen
    .getAllByRole('link', { name: SUPPORT })
    .find((a) => a.closest('section[aria-labelledby="payment-result-title"]'));
  expect(link?.getAttribute('href')).toBe(`mailto:${SUPPORT}`);
}

describe('payment result page', () => {
  it('without a session_id goes to /pricing, replacing the history entry', async () => {
    const { router } = renderResult('/success?redirect=dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(verificationCalls()).toHaveLength(0);
  });

  it("shows 'Verifying Payment' with a spinner while the session is checked", async () => {
    verifyAnswers(never);
    const id = newSessionId();
    renderResult(`/success?session_id=${id}&redirect=dashboard`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/confirm your payment/);
    expect(document.querySelector('.animate-spin')).not.toBeNull();
    await waitFor(() => expect(verificationCalls()).toHaveLength(1));
    expect(verificationCalls()[0]!.params.id).toBe(id);
  });

  it('success: the new balance, a 3-2-1 countdown, then /dashboard', async () => {
    const verification = held<'GET /api/checkout/sessions/{id}'>();
    verifyAnswers(verification.reply);
    const { router } = renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);
    await waitFor(() => expect(verification.sent).toBe(true));
    // The countdown's seconds are the test's from the answer on; the answer itself travels on real macrotasks.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    verification.send({ status: 'paid', creditsAdded: 60, credits: 66 });
    for (let turn = 0; turn < 500 && !screen.queryByTestId('new-balance'); turn++) {
      await act(async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        // react-query notifies on a 0 ms timeout; the countdown's 1 s ones stay put.
        await vi.advanceTimersByTimeAsync(0);
      });
    }

    expect(screen.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('66 credits');
    expect(screen.getByText('60 credits have been added to your account.')).toBeTruthy();
    const countdown = screen.getByText(/^Redirecting to dashboard in/);
    expect(countdown.getAttribute('aria-live')).toBe('polite');
    expect(countdown.textContent).toBe('Redirecting to dashboard in 3 seconds...');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(countdown.textContent).toBe('Redirecting to dashboard in 2 seconds...');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // The spec's words, in the singular at 1 (issue 35).
    expect(countdown.textContent).toBe('Redirecting to dashboard in 1 second...');
    expect(router.state.location.pathname).toBe('/success');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(toastsOf('error')).toEqual([]);
  });

  it('success: Go to Dashboard and Start Generating, the support line, focus on the heading', async () => {
    verifyAnswers({ status: 'paid', creditsAdded: 60, credits: 66 });
    renderResult(`/success?session_id=${newSessionId()}`);

    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    const section = heading.closest('section')!;
    expect(within(section).getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    expect(within(section).getByRole('link', { name: 'Start Generating' }).getAttribute('href')).toBe(
      '/generator',
    );
    expectSupportLine();
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it("success gives every credits badge the new balance: /api/me's cache is updated and invalidated", async () => {
    verifyAnswers({ status: 'paid', creditsAdded: 60, credits: 66 });
    // The balance's refetch stays pending: the 66 on screen is the page's own update of the cache.
    answer('GET /api/me', never);
    const { queryClient } = renderResult(`/success?session_id=${newSessionId()}`);

    await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    await waitFor(() => expect(queryClient.getQueryData<Me>(['me', 'user-1'])?.credits).toBe(66));
    expect(queryClient.getQueryState(['me', 'user-1'])?.isInvalidated).toBe(true);
  });

  // Changed on purpose (issue 27): a failed verification offers 'Check again' (the same session), not 'Try Again'
  // (/pricing, a second purchase one tap away).
  it.each(['no_payment_required', 'invalid'] as const)(
    "status '%s' is a failure: message, Check again, Go to Dashboard, support line and one toast",
    async (status) => {
      verifyAnswers({ status, creditsAdded: 0, credits: 6 });
      const { queryClient } = renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);

      const heading = await screen.findByRole('heading', {
        level: 1,
        name: 'Payment Verification Failed',
      });
      const section = heading.closest('section')!;
      expect(within(section).getByText(FAILED_TEXT)).toBeTruthy();
      expect(within(section).getByRole('button', { name: 'Check again' })).toBeTruthy();
      expect(within(section).queryByRole('link', { name: 'Try Again' })).toBeNull();
      expect(within(section).getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
        '/dashboard',
      );
      expectSupportLine();
      await expectToast('error', 'Payment verification failed. Please contact support.');
      expect(toastsOf('error')).toHaveLength(1);
      expect(screen.queryByText(/Redirecting to dashboard/)).toBeNull();
      expect(queryClient.getQueryData<Me>(['me', 'user-1'])?.credits).toBe(6);
    },
  );

  it.each(['unpaid', 'expired'] as const)(
    "status '%s' (declined or cancelled) says nothing was charged and offers the same pack again, no alarm",
    async (status) => {
      sessionStorage.setItem('hs.checkout.pack', 'popular');
      verifyAnswers({ status, creditsAdded: 0, credits: 6 });
      renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);

      const { heading, section } = await notCompletedWithThePopularPack();
      expect(within(section).getByRole('link', { name: 'See all packs' }).getAttribute('href')).toBe(
        '/pricing',
      );
      expect(within(section).queryByText(FAILED_TEXT)).toBeNull();
      expect(toastsOf('error')).toEqual([]);
      await waitFor(() => expect(document.activeElement).toBe(heading));
    },
  );

  it("'Check again' verifies the same session again (no new purchase) and shows the success", async () => {
    const id = newSessionId();
    let calls = 0;
    verifyAnswers(() => {
      calls += 1;
      if (calls === 1) return apiError(404, 'NOT_FOUND', 'Checkout session not found.');
      return { status: 'paid', creditsAdded: 60, credits: 66 };
    });
    renderResult(`/success?session_id=${id}`);

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(verificationCalls().map((request) => request.params.id)).toEqual([id, id]);
    expect(requestsTo('POST /api/checkout/sessions')).toHaveLength(0);
  });

  it("after the wizard's Buy More: back to the wizard with its photos and choices, and no countdown", async () => {
    sessionStorage.setItem('hs.checkout.return', 'generator');
    sessionStorage.setItem('hs.generator.draft', '{"step":3}');
    verifyAnswers({ status: 'paid', creditsAdded: 60, credits: 66 });
    renderResult(`/success?session_id=${newSessionId()}`);

    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    const section = heading.closest('section')!;
    expect(within(section).getByText('Your photos and choices are kept.')).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Back to your headshots' }).getAttribute('href')).toBe(
      '/generator',
    );
    expect(screen.queryByText(/Redirecting to dashboard/)).toBeNull();
  });

  it.each([
    [404, 'NOT_FOUND', 'Checkout session not found.'],
    [400, 'VALIDATION_ERROR', 'That is not a checkout session id.'],
  ])('a %d answer is a failure and is not retried', async (status, code, message) => {
    verifyAnswers(apiError(status, code, message));
    renderResult(`/success?session_id=${newSessionId()}`);

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    expect(verificationCalls()).toHaveLength(1);
  });

  it('retries a network failure, then shows the success', async () => {
    let calls = 0;
    verifyAnswers(() => {
      calls += 1;
      if (calls === 1) return networkError();
      return { status: 'paid', creditsAdded: 40, credits: 46 };
    });
    renderResult(`/success?session_id=${newSessionId()}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('46 credits');
    expect(verificationCalls()).toHaveLength(2);
    expect(toastsOf('error')).toEqual([]);
  });

  it('signed out: starts sign-in that comes back to this very URL, and verifies nothing yet', async () => {
    signedOut();
    const id = newSessionId();
    const { router, here } = renderResult(`/success?session_id=${id}&redirect=dashboard`);

    // Both in one look: the redirect may follow the render by a single task, so a second look could see /signin.
    await waitFor(() => {
      expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
      expect(screen.getByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    });
    // The Sign In tab (a buyer has an account), in place of this entry.
    await waitFor(() =>
      expect(here()).toBe(
        `/signin?returnTo=${encodeURIComponent(`/success?session_id=${id}&redirect=dashboard`)}`,
      ),
    );
    expect(router.state.historyAction).toBe('REPLACE');
    expect(verificationCalls()).toHaveLength(0);
  });

  it('waits for the session to load before verifying', async () => {
    sessionLoading();
    const id = newSessionId();
    const { here } = renderResult(`/success?session_id=${id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(verificationCalls()).toHaveLength(0);
    expect(here()).toBe(`/success?session_id=${id}`);
  });

  it("StrictMode's double mount sends one verification and shows one toast", async () => {
    verifyAnswers({ status: 'invalid', creditsAdded: 0, credits: 6 });
    renderResult(`/success?session_id=${newSessionId()}`, { strict: true });

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(verificationCalls()).toHaveLength(1);
    expect(toastsOf('error')).toHaveLength(1);
  });

  it('StrictMode with an already known outcome (a remount) still toasts once and asks nothing again', async () => {
    const id = newSessionId();
    renderResult(`/success?session_id=${id}`, {
      strict: true,
      seed: (client) =>
        client.setQueryData(checkoutVerificationQueryKey('user-1', id), {
          status: 'invalid',
          creditsAdded: 0,
          credits: 6,
        }),
    });

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    await expectToast('error', 'Payment verification failed. Please contact support.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toastsOf('error')).toHaveLength(1);
    expect(verificationCalls()).toHaveLength(0);
  });

  it('StrictMode: a paid session is verified once and still redirects', async () => {
    verifyAnswers({ status: 'paid', creditsAdded: 60, credits: 66 });
    const { router } = renderResult(`/success?session_id=${newSessionId()}`, { strict: true });

    await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 6000 });
    expect(verificationCalls()).toHaveLength(1);
  });

  it('shows the result for any path starting with /success', async () => {
    verifyAnswers({ status: 'paid', creditsAdded: 100, credits: 106 });
    renderResult(`/success/dashboard?session_id=${newSessionId()}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('106 credits');
  });
});

describe("the not-completed page (Stripe Checkout's cancel_url)", () => {
  it("says nothing was charged, offers the pack again and, from the wizard's Buy More, the way back to it", async () => {
    sessionStorage.setItem('hs.checkout.return', 'generator');
    sessionStorage.setItem('hs.generator.draft', '{"step":3}');
    renderAt('/checkout/cancelled?pack=popular', {
      element: <CheckoutCancelledPage />,
      route: '/checkout/cancelled',
    });

    const { heading, section } = await notCompletedWithThePopularPack();
    expect(within(section).getByRole('link', { name: 'Back to your headshots' }).getAttribute('href')).toBe(
      '/generator',
    );
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('without a known pack offers every pack', async () => {
    renderAt('/checkout/cancelled?pack=gold', {
      element: <CheckoutCancelledPage />,
      route: '/checkout/cancelled',
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment not completed' });
    expect(
      within(heading.closest('section')!).getByRole('link', { name: 'See all packs' }).getAttribute('href'),
    ).toBe('/pricing');
  });
});

describe("a team's seat purchase (issue 37: `…&redirect=team&team=<teamId>`)", () => {
  const TEAM = '01TEAMACME0000000000000000';

  it("says the credits went to the team, shows the team's balance and counts down to the team's page", async () => {
    verifyAnswers({ status: 'paid', creditsAdded: 24, credits: 24 });
    const { router } = renderResult(`/success?session_id=${newSessionId()}&redirect=team&team=${TEAM}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByText('24 credits have been added to your team.')).toBeTruthy();
    expect(screen.getByText("Your team's balance")).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('24 credits');
    expect(screen.getByText(/^Redirecting to your team in [1-3] seconds?\.\.\.$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your team' }).getAttribute('href')).toBe(
      `/teams/${TEAM}`,
    );
    expect(screen.queryByRole('link', { name: 'Start Generating' })).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/teams/${TEAM}`), { timeout: 6000 });
  });

  it('a seat purchase not completed goes back to the team, never to the packs', async () => {
    verifyAnswers({ status: 'expired', creditsAdded: 0, credits: 0 });
    renderResult(`/success?session_id=${newSessionId()}&redirect=team&team=${TEAM}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment not completed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your team' }).getAttribute('href')).toBe(
      `/teams/${TEAM}`,
    );
    expect(screen.queryByRole('link', { name: 'See all packs' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Try again/ })).toBeNull();
  });
});
