/**
 * What the sign-in form says when Cognito refuses a sign-in (issue 35: a deleted account read "User not authorized").
 * Amplify passes Cognito's errors on with the exception's name as `name` and Cognito's own sentence as `message`
 * (InitiateAuth: https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html);
 * the Authenticator shows `message` as it is. The customer gets a sentence they can act on instead (the strings are
 * in docs/product-spec.md, error catalogue). Unconfirmed accounts and required password resets never arrive here:
 * Amplify turns them into the form's next step (CONFIRM_SIGN_UP, RESET_PASSWORD).
 */

/**
 * Wrong e-mail or password, or no such account. The app client sets PreventUserExistenceErrors (infrastructure/
 * constructs/auth.ts), so Cognito answers a deleted or unknown account exactly as a wrong password
 * (NotAuthorizedException "Incorrect username or password.", also for a disabled account with a wrong password:
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-managing-errors.html); without it,
 * UserNotFoundException "User does not exist.". The sentence names all three causes, as Cognito cannot tell them
 * apart to us.
 */
export const SIGN_IN_WRONG_CREDENTIALS =
  "That e-mail and password don't match an account. Check both and try again, or choose 'Forgot your password?'. If you deleted your account, create a new one.";

/** An account an administrator switched off (AdminDisableUser): NotAuthorizedException "User is disabled.". */
export const SIGN_IN_DISABLED =
  'This account is switched off, so it cannot sign in. Write to us at the address at the bottom of this page and we will help.';

/**
 * Cognito's lockout after repeated wrong passwords (NotAuthorizedException "Password attempts exceeded"): from the
 * fifth failure it refuses even the right password for a while that doubles with each further failure
 * (up to about 15 minutes: https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-authentication-flow.html).
 */
export const SIGN_IN_LOCKED =
  "Too many tries with a wrong password, so sign-in is paused for a while. Wait a few minutes and try again, or choose 'Forgot your password?'.";

/** Cognito's request rate limit for the user pool (TooManyRequestsException). */
export const SIGN_IN_BUSY = 'Too many sign-in attempts right now. Wait a moment and try again.';

/** Any other refusal (NotAuthorizedException with another sentence, e.g. a misconfigured app client). */
export const SIGN_IN_REFUSED =
  'We could not sign you in. Try again, or write to us at the address at the bottom of this page.';

const NOT_AUTHORIZED: Record<string, string> = {
  'Incorrect username or password.': SIGN_IN_WRONG_CREDENTIALS,
  'User is disabled.': SIGN_IN_DISABLED,
  'Password attempts exceeded': SIGN_IN_LOCKED,
};

/**
 * The customer's sentence for a failed sign-in (see the module comment).
 *
 * @param error what Amplify's `signIn` threw
 * @returns an Error with the same `name` and the customer's sentence as `message`, or `error` itself when it is not
 *   one of Cognito's refusals (a network error, say), so it is shown as it is
 */
export function signInError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = customerMessage(error.name, error.message);
  return message ? Object.assign(new Error(message), { name: error.name }) : error;
}

function customerMessage(name: string, message: string): string | undefined {
  switch (name) {
    case 'NotAuthorizedException':
      return NOT_AUTHORIZED[message] ?? SIGN_IN_REFUSED;
    case 'UserNotFoundException':
      return SIGN_IN_WRONG_CREDENTIALS;
    case 'TooManyRequestsException':
      return SIGN_IN_BUSY;
    default:
      return undefined;
  }
}
