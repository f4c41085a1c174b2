import { setTokenProvider } from '../api-client';
import { authFlowTypeOf, type AuthFlowType, type RuntimeConfig } from '../runtime-config';
import type * as Session from './session';
import { needsRefresh } from './token-refresh';

/** The Amplify module of the SPA (`session.ts`), loaded by {@link loadSession}. */
export type SessionModule = typeof Session;

let flowType: AuthFlowType = 'USER_SRP_AUTH';
let settings: RuntimeConfig | undefined;
let session: Promise<SessionModule> | undefined;
let loaded = deferredSession();

/**
 * Remembers the runtime configuration for sign-in and makes the API client send the ID token (it carries `email`,
 * which `GET /api/me` needs). `main.tsx` calls it once, before the first render. Amplify itself is not loaded here:
 * {@link loadSession} loads and configures it the first time something needs the session, so the landing and
 * pricing pages render without it.
 *
 * The sign-in flow cannot be configured globally in Amplify v6, so it is kept here and passed per call (see
 * {@link authFlowType}).
 */
export function configureAuth(config: RuntimeConfig): void {
  flowType = authFlowTypeOf(config);
  settings = config;
  session = undefined;
  loaded = deferredSession();
  setTokenProvider(async ({ forceRefresh = false } = {}) => {
    // No stored tokens and Amplify not loaded yet: an anonymous call, without loading Amplify for it.
    if (!session && !mayHaveStoredSession()) return undefined;
    try {
      const { fetchAuthSession } = await loadSession();
      let current = await fetchAuthSession({ forceRefresh });
      // Within 30 s of expiry: refresh now rather than send a token that may expire on the way.
      const tokens = current.tokens;
      if (!forceRefresh && tokens && needsRefresh(earliestExpiry(tokens))) {
        current = await fetchAuthSession({ forceRefresh: true });
      }
      return current.tokens?.idToken?.toString();
    } catch {
      return undefined;
    }
  });
}

/**
 * Loads Amplify (a chunk of its own) and configures it from the configuration given to {@link configureAuth}, once;
 * every caller gets the same module.
 *
 * @throws Error when {@link configureAuth} has not been called
 */
export function loadSession(): Promise<SessionModule> {
  if (!session) {
    const config = settings;
    if (!config) return Promise.reject(new Error('configureAuth() must run before the session is loaded'));
    session = import('./session').then((module) => {
      module.configureAmplify(config);
      loaded.resolve(module);
      return module;
    });
  }
  return session;
}

/** A promise of the session module and the function that fulfils it. */
function deferredSession(): { promise: Promise<SessionModule>; resolve: (module: SessionModule) => void } {
  let resolve: (module: SessionModule) => void = () => undefined;
  const promise = new Promise<SessionModule>((fulfil) => {
    resolve = fulfil;
  });
  return { promise, resolve };
}

/** Resolves with the session module once something has loaded it ({@link loadSession}); never loads it itself. */
export function whenSessionLoaded(): Promise<SessionModule> {
  return loaded.promise;
}

/**
 * Whether this browser may hold a signed-in session: Amplify keeps its tokens in localStorage under
 * `CognitoIdentityServiceProvider.<app client id>.…`. With no such key there is nothing to read, so a visitor's
 * first page (the landing or pricing page) need not load Amplify to know they are signed out. `true` when unsure.
 */
export function mayHaveStoredSession(): boolean {
  const clientId = settings?.userPoolClientId;
  if (!clientId) return true;
  try {
    const prefix = `CognitoIdentityServiceProvider.${clientId}.`;
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(prefix)) return true;
    return false;
  } catch {
    return true;
  }
}

/** The Cognito flow every password sign-in must use: `USER_PASSWORD_AUTH` locally, `USER_SRP_AUTH` in the cloud. */
export function authFlowType(): AuthFlowType {
  return flowType;
}

/** The earlier `exp` (seconds) of the access and ID tokens: the API gets the ID token, which may expire first. */
function earliestExpiry(tokens: {
  accessToken?: { payload: { exp?: number } };
  idToken?: { payload: { exp?: number } };
}): number | undefined {
  const exps = [tokens.accessToken?.payload.exp, tokens.idToken?.payload.exp].filter(
    (e): e is number => typeof e === 'number',
  );
  return exps.length ? Math.min(...exps) : undefined;
}
