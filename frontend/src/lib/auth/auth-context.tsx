import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loadSession, mayHaveStoredSession, whenSessionLoaded, type SessionModule } from './configure';
import { signInPath } from './return-to';
import { hasSignedInBefore, rememberSignedIn } from './returning';
import type { AuthSession } from './session';

/** Where authentication stands: `loading` until the stored session has been read (and refreshed if needed). */
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

/** The signed-in person, from the ID token's claims. */
export interface AuthUser {
  /** Cognito user id (`sub`); the API's user id. */
  sub: string;
  email: string;
}

/** What {@link useAuth} returns. */
export interface AuthContextValue {
  status: AuthStatus;
  /** Set exactly when `status` is `signedIn`. */
  user: AuthUser | null;
  /**
   * Starts sign-in: goes to `/signin`, which comes back to `returnTo` afterwards (default: the current page).
   * `options.mode: 'signUp'` opens the Sign Up tab, `'signIn'` the Sign In tab; without it, Sign Up for a browser
   * never signed in before (a new visitor) and Sign In otherwise. `options.replace` replaces the current entry.
   */
  signIn(returnTo?: string, options?: SignInOptions): void;
  /** Signs out of this browser and forgets every cached API answer. Never rejects. */
  signOut(): Promise<void>;
}

/** Options of {@link AuthContextValue.signIn}. */
export interface SignInOptions {
  mode?: 'signIn' | 'signUp';
  replace?: boolean;
}

interface SessionState {
  status: AuthStatus;
  user: AuthUser | null;
  signOut(): Promise<void>;
}

const AuthContext = createContext<SessionState | null>(null);

/** The react-query clients made so far (lib/query-client.tsx): none until a part that reads the API has loaded. */
const queryClients = new Set<QueryClient>();

/**
 * Has {@link AuthProvider} clear `client`'s cached API answers whenever the signed-in user goes away or changes, so
 * one person's data is never shown to the next. The session code keeps this list rather than importing react-query's
 * client, which the first page does without.
 */
export function clearOnUserChange(client: QueryClient): void {
  queryClients.add(client);
}

const SIGNED_OUT = { status: 'signedOut', user: null } as const;

/** The user named by a session's ID token, or `null` when the session has no (valid) tokens. */
export function userFromSession(session: AuthSession): AuthUser | null {
  const payload = session.tokens?.idToken?.payload;
  if (!payload || typeof payload.sub !== 'string') return null;
  return { sub: payload.sub, email: typeof payload.email === 'string' ? payload.email : '' };
}

/**
 * Tracks the Amplify session for the whole app. On mount it reads the stored session (refreshing it when the
 * access token is near expiry); afterwards it follows Amplify's Hub `auth` events: `signedIn` reads the session
 * again, `signedOut` and `tokenRefresh_failure` mean signed out. Whenever the signed-in user goes away or changes,
 * the react-query cache is cleared, so one person's data is never shown to the next.
 *
 * The cache cleared is the one an ancestor `QueryClientProvider` gives (tests) and the browser's shared one
 * (lib/query-client.tsx), if it has been made yet.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const providedClient = use(QueryClientContext);
  const [state, setSession] = useState<Pick<SessionState, 'status' | 'user'>>({
    status: 'loading',
    user: null,
  });
  // Every auth event bumps the generation, so a slow session read never overwrites a newer event's outcome.
  const generation = useRef(0);

  useEffect(() => {
    let active = true;
    let stopListening = () => {};
    // What the session turned out to be re-renders every screen that asks (the whole landing page): as a transition
    // that rendering yields to the browser every few milliseconds instead of blocking input in one long task.
    const setState = (next: Pick<SessionState, 'status' | 'user'>) => startTransition(() => setSession(next));
    const readSession = async ({ fetchAuthSession }: SessionModule) => {
      const mine = ++generation.current;
      let user: AuthUser | null;
      try {
        user = userFromSession(await fetchAuthSession());
      } catch {
        user = null;
      }
      if (active && mine === generation.current) {
        if (user) rememberSignedIn();
        setState(user ? { status: 'signedIn', user } : SIGNED_OUT);
      }
    };
    // Amplify loads after the first render (its own chunk): until then the status is `loading`. A browser without
    // stored tokens is signed out at once, and Amplify waits until something needs it (the sign-in page loads it).
    const stored = mayHaveStoredSession();
    if (!stored) {
      void Promise.resolve().then(() => {
        if (active && generation.current === 0) setState(SIGNED_OUT);
      });
    }
    (stored ? loadSession() : whenSessionLoaded()).then(
      (session) => {
        if (!active) return;
        void readSession(session);
        stopListening = session.Hub.listen('auth', ({ payload }) => {
          switch (payload.event) {
            case 'signedIn':
            case 'tokenRefresh':
              void readSession(session);
              break;
            case 'signedOut':
            case 'tokenRefresh_failure':
              generation.current++;
              setState(SIGNED_OUT);
              break;
          }
        });
      },
      (error: unknown) => {
        console.warn('Sign-in is unavailable:', error);
        if (active) setState(SIGNED_OUT);
      },
    );
    return () => {
      active = false;
      stopListening();
    };
  }, []);

  // Forget cached API answers when the user signs out or another user signs in.
  const lastSub = useRef<string | null>(null);
  const sub = state.user?.sub ?? null;
  useEffect(() => {
    if (state.status === 'loading') return;
    if (lastSub.current !== null && lastSub.current !== sub) {
      providedClient?.clear();
      for (const client of queryClients) client.clear();
    }
    lastSub.current = sub;
  }, [providedClient, state.status, sub]);

  const signOut = useCallback(async () => {
    try {
      await (await loadSession()).signOut();
    } catch (error) {
      // Tokens are removed from storage even when revoking them at Cognito fails; the user is signed out here.
      console.warn('Sign-out did not complete cleanly:', error);
    }
    generation.current++;
    setSession(SIGNED_OUT);
  }, []);

  const value = useMemo(() => ({ ...state, signOut }), [state, signOut]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

/**
 * The current authentication state and the two actions: `signIn(returnTo?)` and `signOut()`. Use inside the
 * router (it navigates) and below {@link AuthProvider}.
 */
export function useAuth(): AuthContextValue {
  const session = use(AuthContext);
  if (!session) throw new Error('useAuth() must be used inside <AuthProvider>');
  const navigate = useNavigate();
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;

  const signIn = useCallback(
    (returnTo?: string, options: SignInOptions = {}) => {
      // No mode asked for: a browser that was never signed in is a new visitor, who gets Create Account first.
      const mode = options.mode ?? (hasSignedInBefore() ? 'signIn' : 'signUp');
      void navigate(signInPath({ returnTo: returnTo ?? here, mode }), {
        replace: options.replace,
      });
    },
    [navigate, here],
  );

  return useMemo(
    () => ({ status: session.status, user: session.user, signIn, signOut: session.signOut }),
    [session, signIn],
  );
}
