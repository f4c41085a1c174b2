/**
 * Accounts: who is signed in, their user record and credits, and the guards and widgets every signed-in screen
 * uses. Import from here (`features/auth`), not from the files behind it.
 *
 * - {@link useAuth}: `{ status, user, signIn(returnTo?), signOut() }`.
 * - {@link useMe}: the react-query hook for `GET /api/me` (`{ id, email, displayName, credits, createdAt }`).
 * - {@link RequireAuth}: wraps a protected route's element.
 * - {@link CreditsBadge}: 'N credits', linking to /pricing.
 */
export { AuthProvider, useAuth } from './auth-context';
export type { AuthContextValue, AuthStatus, AuthUser } from './auth-context';
export { useMe, meQueryKey } from './use-me';
export type { Me } from './use-me';
export { RequireAuth } from './RequireAuth';
export { SignOutButton } from './SignOutButton';
export { sanitizeReturnTo, signInPath } from './return-to';
export { CreditsBadge } from '../../components/CreditsBadge';
export type { CreditsBadgeProps } from '../../components/CreditsBadge';
