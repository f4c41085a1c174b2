/**
 * Whether this browser has been signed in before (issue 27 "new visitors land on Create Account"): a visitor who
 * never was is sent to the Sign Up tab by every "start" button, and one who was, to Sign In. A marker in
 * `localStorage`, set whenever a session is seen; it holds no personal data and outlives signing out.
 */
const KEY = 'hs.signedInBefore';

/** Remembers that this browser has had a session. Never throws (storage blocked: not remembered). */
export function rememberSignedIn(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Not remembered: this browser keeps getting Sign Up first, which has a link to Sign In.
  }
}

/** True when this browser has had a session before. */
export function hasSignedInBefore(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
