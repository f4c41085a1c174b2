import { vi } from 'vitest';
import type { AuthContextValue, AuthStatus } from '../../../frontend/src/lib/auth';
import { sanitizeReturnTo, signInPath } from '../../../frontend/src/lib/auth/return-to';

/**
 * The session (`lib/auth`) for unit tests of one screen: a status the test sets and spies for the two actions.
 * A test file installs it with
 *   vi.mock('../../../frontend/src/lib/auth', async () => (await import('./auth-mock')).authModule);
 */
export const auth = {
  status: 'signedIn' as AuthStatus,
  signIn: vi.fn<AuthContextValue['signIn']>(),
  signOut: vi.fn(async () => {}),
};

export const authModule = {
  // The module's pure helpers, as they are: only the session is the test's.
  sanitizeReturnTo,
  signInPath,
  useAuth: (): AuthContextValue => ({
    status: auth.status,
    user: auth.status === 'signedIn' ? { sub: 'user-1', email: 'ada@example.com' } : null,
    signIn: auth.signIn,
    signOut: auth.signOut,
  }),
};
