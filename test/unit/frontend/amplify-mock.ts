import { vi } from 'vitest';

/**
 * Amplify for the SPA's unit tests: a session the test controls and a Hub it can fire events on. A test file
 * installs it with
 *   vi.mock('aws-amplify/auth', async () => (await import('./amplify-mock')).amplifyAuth);
 *   vi.mock('aws-amplify/utils', async () => (await import('./amplify-mock')).amplifyUtils);
 */
type Listener = (capsule: { payload: { event: string } }) => void;
const listeners = new Set<Listener>();

export const amplify = {
  listeners,
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(async () => {}),
  signIn: vi.fn(async (input: unknown) => ({ input })),
  signUp: vi.fn(async (input: unknown) => ({ input })),
  /** Fires an `auth` Hub event (`signedIn`, `signedOut`, `tokenRefresh_failure`…). */
  emit(event: string) {
    for (const listener of [...listeners]) listener({ payload: { event } });
  },
  /** A session whose ID token names `user` (its `toString()` is the bearer token). */
  session(user: { sub: string; email: string }, token = 'id-token') {
    return { tokens: { idToken: { payload: { ...user }, toString: () => token } } };
  },
  /** Back to signed out, with no calls recorded. */
  reset() {
    listeners.clear();
    amplify.fetchAuthSession.mockReset();
    amplify.fetchAuthSession.mockResolvedValue({});
    amplify.signOut.mockClear();
    amplify.signIn.mockClear();
    amplify.signUp.mockClear();
  },
};

export const amplifyAuth = {
  fetchAuthSession: amplify.fetchAuthSession,
  signOut: amplify.signOut,
  signIn: amplify.signIn,
  signUp: amplify.signUp,
};

export const amplifyUtils = {
  Hub: {
    listen: (_channel: string, listener: Listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  },
};
