/** Where authentication stands: `loading` until the stored session has been read (and refreshed if needed). */
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

/** The signed-in person, from the ID token's claims. */
export interface AuthUser {
  /** Cognito user id (`sub`); the API's user id. */
  sub: string;
  email: string;
}

/** The session as the screens show it: `user` is set exactly when `status` is `signedIn`. */
export interface SessionSnapshot {
  status: AuthStatus;
  user: AuthUser | null;
}

/** Before the stored session has been read; also what the pages rendered at build time show. */
export const SESSION_LOADING: SessionSnapshot = { status: 'loading', user: null };

/** Signed out (no tokens, a failed read, a sign-out). */
export const SIGNED_OUT: SessionSnapshot = { status: 'signedOut', user: null };

/**
 * The session's state outside React, read with `useSyncExternalStore` (the shape React asks for:
 * https://react.dev/reference/react/useSyncExternalStore). A change re-renders only the components that read it,
 * each where it is: none of it travels down the tree as a context value, which React would also have to deliver into
 * every Suspense boundary still waiting to be hydrated (docs/decisions/014-fast-feedback.md, third round).
 */
export interface SessionStore {
  /** The current state; the same object until it changes. */
  getSnapshot(): SessionSnapshot;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Replaces the state and tells the listeners; a state equal to the current one (same status and user) is no change. */
  set(next: SessionSnapshot): void;
}

/** A {@link SessionStore} starting at {@link SESSION_LOADING}. */
export function createSessionStore(): SessionStore {
  let current = SESSION_LOADING;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (sameSession(current, next)) return;
      current = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

function sameSession(a: SessionSnapshot, b: SessionSnapshot): boolean {
  return a.status === b.status && a.user?.sub === b.user?.sub && a.user?.email === b.user?.email;
}
