// @vitest-environment jsdom
import type { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../frontend/src/lib/api/get-me';
import { checkoutVerificationQueryKey } from '../../../frontend/src/features/checkout/api/verify-checkout-session';
import { PaymentResultPage } from '../../../frontend/src/features/checkout/components/PaymentResultPage';
import { CheckoutCancelledPage } from '../../../frontend/src/features/checkout/components/CheckoutCancelledPage';
import type * as ApiModule from '../../../frontend/src/lib/api-client';
import { ApiError, apiFetch } from '../../../frontend/src/lib/api-client';
import { auth } from './auth-mock';
import { renderAt, testConfig } from './render';

const mocks = vi.hoisted(() => ({
  toast: { info: vi.fn(), success: vi.fn(), error: vi.fn() },
}));

vi.mock('../../../frontend/src/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof ApiModule>()),
  apiFetch: vi.fn(),
}));
vi.mock('../../../frontend/src/lib/auth', async () => (await import('./auth-mock')).authModule);
vi.mock('../../../frontend/src/components/CreditsBadge', () => ({
  CreditsBadge: () => <a href="/pricing">credits</a>,
}));
vi.mock('sonner', () => ({ toast: mocks.toast }));

const SUPPORT = testConfig.supportEmail;

const apiFetchMock = vi.mocked(apiFetch);
const FAILED_TEXT = "We couldn't verify your payment. Please contact our support team for assistance.";
let sessionCounter = 0;
/** A session id no other test used: the page acts on each session's outcome once per page load. */
const newSessionId = () => `cs_test_unit${++sessionCounter}_${Math.random().toString(36).slice(2, 8)}`;

/** The Popular Pack as `GET /api/packs` answers it. */
const POPULAR = {
  id: 'popular',
  name: 'Popular Pack',
  credits: 60,
  priceCents: 4500,
  currency: 'usd',
  pricePerCredit: 0.75,
  popular: true,
  features: [],
};

beforeEach(() => {
  sessionStorage.clear();
  auth.status = 'signedIn';
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

function answer(body: unknown) {
  apiFetchMock.mockImplementation(async () => body);
}

/** The payment result page at `path` (any path starting with /success), after a visit to the landing page. */
function renderResult(
  path: string,
  { strict = false, seed }: { strict?: boolean; seed?: (client: QueryClient) => void } = {},
) {
  const me: Me = {
    id: 'user-1',
    email: 'ada@example.com',
    displayName: 'ada',
    credits: 6,
    signupBonus: 'granted',
    emailWhenReady: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    activeGeneration: null,
  };
  return renderAt(path, {
    element: <PaymentResultPage />,
    route: '*',
    history: ['/'],
    strict,
    seed: (queryClient) => {
      queryClient.setQueryData(['me', 'user-1'], me);
      seed?.(queryClient);
    },
  });
}

function verificationCalls() {
  return apiFetchMock.mock.calls.filter(([path]) => path.startsWith('/checkout/sessions/'));
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
    expect(apiFetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Verifying Payment' with a spinner while the session is checked", async () => {
    apiFetchMock.mockImplementation(() => new Promise(() => {}));
    const id = newSessionId();
    renderResult(`/success?session_id=${id}&redirect=dashboard`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/confirm your payment/);
    expect(document.querySelector('.animate-spin')).not.toBeNull();
    await waitFor(() => expect(verificationCalls()).toHaveLength(1));
    expect(verificationCalls()[0]![0]).toBe(`/checkout/sessions/${id}`);
  });

  it('success: the new balance, a 3-2-1 countdown, then /dashboard', async () => {
    vi.useFakeTimers();
    answer({ status: 'paid', creditsAdded: 60, credits: 66 });
    const { router } = renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);
    await act(() => vi.advanceTimersByTimeAsync(50));

    expect(screen.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('66 credits');
    expect(screen.getByText('60 credits have been added to your account.')).toBeTruthy();
    const countdown = screen.getByText(/^Redirecting to dashboard in/);
    expect(countdown.getAttribute('aria-live')).toBe('polite');
    expect(countdown.textContent).toBe('Redirecting to dashboard in 3 seconds...');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(countdown.textContent).toBe('Redirecting to dashboard in 2 seconds...');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // Verbatim from the spec at every tick, 1 included.
    expect(countdown.textContent).toBe('Redirecting to dashboard in 1 seconds...');
    expect(router.state.location.pathname).toBe('/success');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(mocks.toast.error).not.toHaveBeenCalled();
  });

  it('success: Go to Dashboard and Start Generating, the support line, focus on the heading', async () => {
    answer({ status: 'paid', creditsAdded: 60, credits: 66 });
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
    answer({ status: 'paid', creditsAdded: 60, credits: 66 });
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
      answer({ status, creditsAdded: 0, credits: 6 });
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
      expect(mocks.toast.error).toHaveBeenCalledTimes(1);
      expect(mocks.toast.error).toHaveBeenCalledWith(
        'Payment verification failed. Please contact support.',
        expect.anything(),
      );
      expect(screen.queryByText(/Redirecting to dashboard/)).toBeNull();
      expect(queryClient.getQueryData<Me>(['me', 'user-1'])?.credits).toBe(6);
    },
  );

  it.each(['unpaid', 'expired'] as const)(
    "status '%s' (declined or cancelled) says nothing was charged and offers the same pack again, no alarm",
    async (status) => {
      sessionStorage.setItem('hs.checkout.pack', 'popular');
      apiFetchMock.mockImplementation(async (path: string) =>
        path === '/packs' ? { packs: [POPULAR] } : { status, creditsAdded: 0, credits: 6 },
      );
      renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);

      const heading = await screen.findByRole('heading', { level: 1, name: 'Payment not completed' });
      const section = heading.closest('section')!;
      expect(within(section).getByText('You have not been charged.')).toBeTruthy();
      expect(
        await within(section).findByRole('button', { name: 'Try again with the Popular Pack' }),
      ).toBeTruthy();
      expect(within(section).getByRole('link', { name: 'See all packs' }).getAttribute('href')).toBe(
        '/pricing',
      );
      expect(within(section).queryByText(FAILED_TEXT)).toBeNull();
      expect(mocks.toast.error).not.toHaveBeenCalled();
      await waitFor(() => expect(document.activeElement).toBe(heading));
    },
  );

  it("'Check again' verifies the same session again (no new purchase) and shows the success", async () => {
    const id = newSessionId();
    let calls = 0;
    apiFetchMock.mockImplementation(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError(404, 'NOT_FOUND', 'Checkout session not found.');
      return { status: 'paid', creditsAdded: 60, credits: 66 };
    });
    renderResult(`/success?session_id=${id}`);

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(verificationCalls().map(([path]) => path)).toEqual([
      `/checkout/sessions/${id}`,
      `/checkout/sessions/${id}`,
    ]);
    expect(apiFetchMock.mock.calls.some(([, init]) => (init as { method?: string })?.method === 'POST')).toBe(
      false,
    );
  });

  it("after the wizard's Buy More: back to the wizard with its photos and choices, and no countdown", async () => {
    sessionStorage.setItem('hs.checkout.return', 'generator');
    sessionStorage.setItem('hs.generator.draft', '{"step":3}');
    answer({ status: 'paid', creditsAdded: 60, credits: 66 });
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
    apiFetchMock.mockImplementation(async () => {
      throw new ApiError(status, code, message);
    });
    renderResult(`/success?session_id=${newSessionId()}`);

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    expect(verificationCalls()).toHaveLength(1);
  });

  it('retries a network failure, then shows the success', async () => {
    let calls = 0;
    apiFetchMock.mockImplementation(async () => {
      calls += 1;
      if (calls === 1) throw new ApiError(0, 'NETWORK_ERROR', "We couldn't reach the server.");
      return { status: 'paid', creditsAdded: 40, credits: 46 };
    });
    renderResult(`/success?session_id=${newSessionId()}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('46 credits');
    expect(verificationCalls()).toHaveLength(2);
    expect(mocks.toast.error).not.toHaveBeenCalled();
  });

  it('signed out: starts sign-in that comes back to this very URL, and verifies nothing yet', async () => {
    auth.status = 'signedOut';
    const id = newSessionId();
    renderResult(`/success?session_id=${id}&redirect=dashboard`);

    await waitFor(() =>
      expect(auth.signIn).toHaveBeenCalledWith(`/success?session_id=${id}&redirect=dashboard`, {
        replace: true,
        mode: 'signIn',
      }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    expect(screen.getByText('Redirecting to sign in...')).toBeTruthy();
    expect(apiFetchMock).not.toHaveBeenCalled();
  });

  it('waits for the session to load before verifying', async () => {
    auth.status = 'loading';
    renderResult(`/success?session_id=${newSessionId()}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Verifying Payment' })).toBeTruthy();
    expect(apiFetchMock).not.toHaveBeenCalled();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it("StrictMode's double mount sends one verification and shows one toast", async () => {
    answer({ status: 'invalid', creditsAdded: 0, credits: 6 });
    renderResult(`/success?session_id=${newSessionId()}`, { strict: true });

    await screen.findByRole('heading', { level: 1, name: 'Payment Verification Failed' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(verificationCalls()).toHaveLength(1);
    expect(mocks.toast.error).toHaveBeenCalledTimes(1);
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mocks.toast.error).toHaveBeenCalledTimes(1);
    expect(verificationCalls()).toHaveLength(0);
  });

  it('StrictMode: a paid session is verified once and still redirects', async () => {
    answer({ status: 'paid', creditsAdded: 60, credits: 66 });
    const { router } = renderResult(`/success?session_id=${newSessionId()}`, { strict: true });

    await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 6000 });
    expect(verificationCalls()).toHaveLength(1);
  });

  it('shows the result for any path starting with /success', async () => {
    answer({ status: 'paid', creditsAdded: 100, credits: 106 });
    renderResult(`/success/dashboard?session_id=${newSessionId()}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(screen.getByTestId('new-balance').textContent).toBe('106 credits');
  });
});

describe("the not-completed page (Stripe Checkout's cancel_url)", () => {
  it("says nothing was charged, offers the pack again and, from the wizard's Buy More, the way back to it", async () => {
    sessionStorage.setItem('hs.checkout.return', 'generator');
    sessionStorage.setItem('hs.generator.draft', '{"step":3}');
    apiFetchMock.mockImplementation(async () => ({ packs: [POPULAR] }));
    renderAt('/checkout/cancelled?pack=popular', {
      element: <CheckoutCancelledPage />,
      route: '/checkout/cancelled',
    });

    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment not completed' });
    const section = heading.closest('section')!;
    expect(within(section).getByText('You have not been charged.')).toBeTruthy();
    expect(
      await within(section).findByRole('button', { name: 'Try again with the Popular Pack' }),
    ).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Back to your headshots' }).getAttribute('href')).toBe(
      '/generator',
    );
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('without a known pack offers every pack', async () => {
    apiFetchMock.mockImplementation(async () => ({ packs: [POPULAR] }));
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
