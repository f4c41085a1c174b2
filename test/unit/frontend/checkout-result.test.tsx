// @vitest-environment jsdom
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../frontend/src/lib/api/get-me';
import { checkoutVerificationQueryKey } from '../../../frontend/src/features/checkout/api/verify-checkout-session';
import { PaymentResultPage } from '../../../frontend/src/features/checkout/components/PaymentResultPage';
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

beforeEach(() => {
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

  it.each(['unpaid', 'expired', 'no_payment_required', 'invalid'] as const)(
    "status '%s' is a failure: message, Try Again, Go to Dashboard, support line and one toast",
    async (status) => {
      answer({ status, creditsAdded: 0, credits: 6 });
      const { queryClient } = renderResult(`/success?session_id=${newSessionId()}&redirect=dashboard`);

      const heading = await screen.findByRole('heading', {
        level: 1,
        name: 'Payment Verification Failed',
      });
      const section = heading.closest('section')!;
      expect(within(section).getByText(FAILED_TEXT)).toBeTruthy();
      expect(within(section).getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/pricing');
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
    answer({ status: 'unpaid', creditsAdded: 0, credits: 6 });
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
          status: 'expired',
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
