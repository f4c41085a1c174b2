import { paths } from '../../config/paths';

/** Where a signed-in user goes when nothing better is known. */
export const DEFAULT_RETURN_TO: string = paths.dashboard.href;

/** The sign-in route. */
export const SIGN_IN_PATH: string = paths.signIn.href;

const PLACEHOLDER_ORIGIN = 'https://return-to.invalid';

/**
 * Turns an untrusted `returnTo` value (from the query string) into a path on this site, or `fallback`.
 *
 * Only same-origin relative paths pass: `/dashboard?x=1#y` is kept; absolute URLs (`https://evil.example`),
 * protocol-relative ones (`//evil.example`, `/\evil.example`), other schemes (`javascript:`), paths with control
 * characters, and the sign-in route itself (a loop) all give `fallback`. The result is normalised by the URL
 * parser, so `/a/../b` becomes `/b`.
 */
export function sanitizeReturnTo(
  value: string | null | undefined,
  fallback: string = DEFAULT_RETURN_TO,
): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  // Must be an absolute path, and not one a browser would read as `//host` (backslashes count as slashes).
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Browsers strip tabs and newlines inside URLs, which could turn `/\t/evil.example` into `//evil.example`.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;

  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  if (url.pathname === SIGN_IN_PATH || url.pathname.startsWith(`${SIGN_IN_PATH}/`)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Options of {@link signInPath}. */
export interface SignInPathOptions {
  /** Where to go after signing in; dropped when it is not a safe same-origin path. */
  returnTo?: string | null;
  /** Open the Sign Up tab instead of Sign In. */
  mode?: 'signIn' | 'signUp';
}

/** The URL of the sign-in screen, e.g. `/signin?returnTo=%2Fgenerator` or `/signin?mode=signup`. */
export function signInPath({ returnTo, mode = 'signIn' }: SignInPathOptions = {}): string {
  const params = new URLSearchParams();
  if (mode === 'signUp') params.set('mode', 'signup');
  const safe = sanitizeReturnTo(returnTo, '');
  if (safe) params.set('returnTo', safe);
  const query = params.toString();
  return query ? `${SIGN_IN_PATH}?${query}` : SIGN_IN_PATH;
}
