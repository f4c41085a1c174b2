// @vitest-environment jsdom
// The session stand-in first: the sign-in screen imports Amplify statically.
import { amplify } from './auth-session';
import { describe, expect, it } from 'vitest';
import { authenticatorServices } from '../../../frontend/src/features/auth/components/SignInPage';
import {
  SIGN_IN_BUSY,
  SIGN_IN_DISABLED,
  SIGN_IN_LOCKED,
  SIGN_IN_REFUSED,
  SIGN_IN_WRONG_CREDENTIALS,
  signInError,
} from '../../../frontend/src/features/auth/utils/sign-in-errors';

/*
 * Cognito's sign-in refusals in the customer's words (issue 35): each exception and sentence Cognito's InitiateAuth
 * answers (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html), as
 * Amplify passes it on (name = the exception, message = Cognito's sentence), maps to the spec's string
 * (docs/product-spec.md, error catalogue); anything else is passed on untouched.
 */

const cognito = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('a refused sign-in', () => {
  it.each([
    [
      'a wrong password, or a deleted or unknown account',
      'NotAuthorizedException',
      'Incorrect username or password.',
      SIGN_IN_WRONG_CREDENTIALS,
    ],
    ['a disabled account', 'NotAuthorizedException', 'User is disabled.', SIGN_IN_DISABLED],
    [
      'the lockout after repeated wrong passwords',
      'NotAuthorizedException',
      'Password attempts exceeded',
      SIGN_IN_LOCKED,
    ],
    [
      'any other refusal',
      'NotAuthorizedException',
      'Unable to verify secret hash for client abc',
      SIGN_IN_REFUSED,
    ],
    [
      'an unknown account without PreventUserExistenceErrors',
      'UserNotFoundException',
      'User does not exist.',
      SIGN_IN_WRONG_CREDENTIALS,
    ],
    ["the user pool's rate limit", 'TooManyRequestsException', 'Too many requests', SIGN_IN_BUSY],
  ])('says so in the customer’s words: %s', (_, name, message, expected) => {
    const mapped = signInError(cognito(name, message));
    expect(mapped).toBeInstanceOf(Error);
    expect((mapped as Error).message).toBe(expected);
    expect((mapped as Error).name).toBe(name);
  });

  it('passes on what is not a Cognito refusal as it is', () => {
    const offline = cognito('NetworkError', 'A network error has occurred.');
    expect(signInError(offline)).toBe(offline);
    expect(signInError('not an error')).toBe('not an error');
  });

  it("reaches the form: signing in to a deleted account no longer reads Cognito's sentence", async () => {
    amplify.signIn.mockRejectedValueOnce(
      cognito('NotAuthorizedException', 'Incorrect username or password.'),
    );
    await expect(
      authenticatorServices.handleSignIn({ username: 'gone@example.com', password: 'pw' }),
    ).rejects.toThrow(SIGN_IN_WRONG_CREDENTIALS);
  });
});
