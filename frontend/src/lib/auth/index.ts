/**
 * Who is signed in: the session for the whole app and the sign-in route helpers. Shared by every feature; import
 * from here (`lib/auth`), not from the files behind it.
 *
 * - {@link AuthProvider}: tracks the Amplify session (rendered once by `app/AppProviders`).
 * - {@link useAuth}: `{ status, user, signIn(returnTo?), signOut() }`.
 * - {@link clearOnUserChange}: a react-query client whose cache is dropped when the user changes.
 * - {@link sanitizeReturnTo}, {@link signInPath}: the `/signin?returnTo=` rules.
 */
export { AuthProvider, clearOnUserChange, useAuth } from './auth-context';
export type { AuthContextValue, AuthStatus, AuthUser } from './auth-context';
export { sanitizeReturnTo, signInPath } from './return-to';
