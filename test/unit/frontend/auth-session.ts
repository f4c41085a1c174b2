import { beforeEach, vi } from 'vitest';
import { configureAuth } from '../../../frontend/src/lib/auth/configure';
import type { RuntimeConfig } from '../../../frontend/src/lib/runtime-config';

/**
 * The one stand-in of the SPA's unit tests that is not the network: Amplify's session (`aws-amplify/auth`,
 * `aws-amplify/utils`). The SPA's own session code (`lib/auth`: AuthProvider, useAuth, RequireAuth) runs as it is;
 * only what Amplify would read from Cognito's tokens is the test's. Amplify reads and refreshes tokens in-process
 * and its Hub is an in-memory event bus, so there is no request here for `api-mocks.ts` to answer.
 *
 * Importing this module (`render.tsx` does, first) registers the two module mocks for the importing test file. The
 * SPA loads Amplify lazily (`lib/auth/configure.ts`), after this registration; a test that imports the sign-in
 * screen itself (which imports `aws-amplify/auth` statically) imports it after `./render`.
 *
 * Every test starts in a fresh browser: signed out, no stored tokens, never signed in before (so Amplify is not even
 * loaded, as on a first visit). A test picks another state with {@link signedIn}, {@link signedOut} or
 * {@link sessionLoading}.
 */

type Listener = (capsule: { payload: { event: string } }) => void;

const amplifyMock = vi.hoisted(() => {
  const listeners = new Set<(capsule: { payload: { event: string } }) => void>();
  return {
    listeners,
    fetchAuthSession: vi.fn(),
    signOut: vi.fn(async () => {}),
    signIn: vi.fn(async (input: unknown) => ({ input })),
    signUp: vi.fn(async (input: unknown) => ({ input })),
  };
});

vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: amplifyMock.fetchAuthSession,
  signOut: amplifyMock.signOut,
  signIn: amplifyMock.signIn,
  signUp: amplifyMock.signUp,
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, listener: Listener) => {
      amplifyMock.listeners.add(listener);
      return () => amplifyMock.listeners.delete(listener);
    },
  },
}));

/** The runtime configuration every test renders with (the local stack's shape). */
export const testConfig: RuntimeConfig = {
  region: 'us-east-1',
  userPoolId: 'local_abc',
  userPoolClientId: 'client',
  cognitoEndpoint: null,
  apiBase: '/api',
  supportEmail: 'help@headshots.example',
  stage: 'test',
  authFlowType: 'USER_PASSWORD_AUTH',
};

/** The signed-in person of {@link signedIn} by default: the ID token's `sub` and `email`. */
export const TEST_USER = { sub: 'user-1', email: 'ada@example.com' };

/** What Amplify leaves in a browser that has signed in: without it the SPA does not load Amplify at all. */
const STORED_TOKENS_KEY = `CognitoIdentityServiceProvider.${testConfig.userPoolClientId}.LastAuthUser`;

/** Amplify as the SPA sees it: spies of its calls, and Hub events a test fires. */
export const amplify = {
  fetchAuthSession: amplifyMock.fetchAuthSession,
  signOut: amplifyMock.signOut,
  signIn: amplifyMock.signIn,
  signUp: amplifyMock.signUp,
  /** Fires an `auth` Hub event (`signedIn`, `signedOut`, `tokenRefresh_failure`…). */
  emit(event: string) {
    for (const listener of [...amplifyMock.listeners]) listener({ payload: { event } });
  },
  /** A session whose ID token names `user` (its `toString()` is the bearer token the API gets). */
  session(user: { sub: string; email: string } = TEST_USER, token = 'id-token') {
    return { tokens: { idToken: { payload: { ...user }, toString: () => token } } };
  },
};

/** A browser holding `user`'s tokens: the SPA reads the session and sends `Bearer <token>` to the API. */
export function signedIn(user: { sub: string; email: string } = TEST_USER, token = 'id-token'): void {
  localStorage.setItem(STORED_TOKENS_KEY, user.sub);
  amplify.fetchAuthSession.mockResolvedValue(amplify.session(user, token));
}

/**
 * Signed out. `storedTokens`: the browser still holds (expired) tokens, so the SPA loads Amplify and reads the
 * session (which has none) instead of knowing at once.
 */
export function signedOut({ storedTokens = false } = {}): void {
  if (storedTokens) localStorage.setItem(STORED_TOKENS_KEY, 'user');
  else localStorage.removeItem(STORED_TOKENS_KEY);
  amplify.fetchAuthSession.mockResolvedValue({});
}

/** Tokens are stored but the session is still being read (never settles): the SPA's status stays `loading`. */
export function sessionLoading(): void {
  localStorage.setItem(STORED_TOKENS_KEY, 'user');
  amplify.fetchAuthSession.mockImplementation(() => new Promise(() => {}));
}

beforeEach(() => {
  amplifyMock.listeners.clear();
  amplify.fetchAuthSession.mockReset();
  amplify.signOut.mockReset();
  amplify.signOut.mockImplementation(async () => {});
  amplify.signIn.mockClear();
  amplify.signUp.mockClear();
  // A fresh browser: never signed in (lib/auth/returning.ts), no tokens.
  localStorage.removeItem('hs.signedInBefore');
  signedOut();
  configureAuth(testConfig);
});
