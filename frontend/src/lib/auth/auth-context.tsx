import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loadSession, mayHaveStoredSession, whenSessionLoaded, type SessionModule } from './configure';
import { signInPath } from './return-to';
import { hasSignedInBefore, rememberSignedIn } from './returning';
import type { AuthSession } from './session';
import {
  createSessionStore,
  SESSION_LOADING,
  SIGNED_OUT,
  type AuthStatus,
  type AuthUser,
  type SessionSnapshot,
  type SessionStore,
} from './session-store';

export type { AuthStatus, AuthUser } from './session-store';

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

/** What {@link AuthProvider} gives the tree: never a new value, so no update travels down the tree with it. */
interface SessionContext {
  store: SessionStore;
  signOut(): Promise<void>;
}

const AuthContext = createContext<SessionContext | null>(null);

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

/** The user named by a session's ID token, or `null` when the session has no (valid) tokens. */
export function userFromSession(session: AuthSession): AuthUser | null {
  const payload = session.tokens?.idToken?.payload;
  if (!payload || typeof payload.sub !== 'string') return null;
  return { sub: payload.sub, email: typeof payload.email === 'string' ? payload.email : '' };
}

/**
 * Follows the Amplify session into `store` until the returned function is called. It reads the stored session
 * (refreshing it when the access token is near expiry); afterwards it follows Amplify's Hub `auth` events: `signedIn`
 * and `tokenRefresh` read the session again, `signedOut` and `tokenRefresh_failure` mean signed out. `generation`
 * counts auth events, so a slow session read never overwrites a newer event's outcome.
 */
function followSession(store: SessionStore, generation: { current: number }): () => void {
  let active = true;
  let stopListening = () => {};
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
      store.set(user ? { status: 'signedIn', user } : SIGNED_OUT);
    }
  };
  // Amplify loads after the first render (its own chunk): until then the status is `loading`. A browser without
  // stored tokens is signed out at once, and Amplify waits until something needs it (the sign-in page loads it).
  const stored = mayHaveStoredSession();
  if (!stored) {
    void Promise.resolve().then(() => {
      if (active && generation.current === 0) store.set(SIGNED_OUT);
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
            store.set(SIGNED_OUT);
            break;
        }
      });
    },
    (error: unknown) => {
      console.warn('Sign-in is unavailable:', error);
      if (active) store.set(SIGNED_OUT);
    },
  );
  return () => {
    active = false;
    stopListening();
  };
}

/**
 * Calls `clear` whenever the signed-in user of `store` goes away or another one signs in (not when the first state
 * is known); returns the function that stops it.
 */
function onUserChange(store: SessionStore, clear: () => void): () => void {
  const subOf = ({ status, user }: SessionSnapshot) => (status === 'loading' ? null : (user?.sub ?? null));
  let lastSub = subOf(store.getSnapshot());
  return store.subscribe(() => {
    const snapshot = store.getSnapshot();
    if (snapshot.status === 'loading') return;
    const sub = subOf(snapshot);
    if (lastSub !== null && lastSub !== sub) clear();
    lastSub = sub;
  });
}

/**
 * Tracks the Amplify session for the whole app ({@link followSession}): `loading` until the stored session has been
 * read, then signed in or out. Whenever the signed-in user goes away or changes, the react-query cache is cleared,
 * so one person's data is never shown to the next.
 *
 * The session's state is kept in a store that {@link useAuth} reads, never in the context's value: a context change
 * would have to be delivered into every Suspense boundary of a prerendered page that is still waiting to be hydrated
 * (React cannot see what is inside one), and on the production build that held the signed-in header back, sometimes
 * for good (docs/decisions/014-fast-feedback.md, third round). A change of the store re-renders just the components
 * that read it; a boundary hydrated later reads it then.
 *
 * The cache cleared is the one an ancestor `QueryClientProvider` gives (tests) and the browser's shared one
 * (lib/query-client.tsx), if it has been made yet.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const providedClient = use(QueryClientContext);
  const [store] = useState(createSessionStore);
  // Every auth event bumps the generation, so a slow session read never overwrites a newer event's outcome.
  const generation = useRef(0);

  useEffect(() => followSession(store, generation), [store]);

  // Forget cached API answers when the user signs out or another user signs in.
  useEffect(
    () =>
      onUserChange(store, () => {
        providedClient?.clear();
        for (const client of queryClients) client.clear();
      }),
    [store, providedClient],
  );

  const signOut = useCallback(async () => {
    try {
      await (await loadSession()).signOut();
    } catch (error) {
      // Tokens are removed from storage even when revoking them at Cognito fails; the user is signed out here.
      console.warn('Sign-out did not complete cleanly:', error);
    }
    generation.current++;
    store.set(SIGNED_OUT);
  }, [store]);

  const value = useMemo(() => ({ store, signOut }), [store, signOut]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

/** Build time and hydration see the session as the prerendered HTML shows it: not read yet. */
const serverSnapshot = () => SESSION_LOADING;

/**
 * The current authentication state and the two actions: `signIn(returnTo?)` and `signOut()`. Use inside the
 * router (it navigates) and below {@link AuthProvider}.
 */
export function useAuth(): AuthContextValue {
  const context = use(AuthContext);
  if (!context) throw new Error('useAuth() must be used inside <AuthProvider>');
  const { store, signOut } = context;
  const session = useSyncExternalStore(store.subscribe, store.getSnapshot, serverSnapshot);
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
    () => ({ status: session.status, user: session.user, signIn, signOut }),
    [session, signIn, signOut],
  );
}
