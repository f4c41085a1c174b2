/**
 * Cognito's answers to a password sign-in (InitiateAuth, `USER_PASSWORD_AUTH`), made from cognito-local's, which
 * differ where a customer sees them (issue 35: a deleted account read "User not authorized"):
 *
 * - an unknown or deleted user: cognito-local NotAuthorizedException "User not authorized"; Cognito, for an app
 *   client with PreventUserExistenceErrors ENABLED (ours), NotAuthorizedException "Incorrect username or password.";
 * - a wrong password, also a disabled user's: cognito-local InvalidPasswordException "Invalid password"; Cognito
 *   NotAuthorizedException "Incorrect username or password.";
 * - a disabled user with the right password: cognito-local signs them in; Cognito NotAuthorizedException
 *   "User is disabled.".
 *
 * Sources: https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-managing-errors.html (the
 * generic NotAuthorizedException for unknown users, also for a disabled user with a wrong password);
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html (errors, 400);
 * "User is disabled." as Cognito words it: https://github.com/getmoto/moto/issues/6552 and
 * https://github.com/localstack/localstack/issues/8454 (AdminInitiateAuth of a disabled user against AWS). Errors
 * are HTTP 400 with a JSON body `{"__type": …, "message": …}`, as every Cognito error.
 */

/** One HTTP answer: status and body (JSON text). */
export interface Answer {
  status: number;
  body: string;
}

/** Cognito's message for a wrong password or a user it will not name (the app client hides user existence). */
export const INCORRECT_CREDENTIALS = 'Incorrect username or password.';
/** Cognito's message for a disabled user who gave the right password. */
export const USER_DISABLED = 'User is disabled.';

const refusal = (message: string): Answer => ({
  status: 400,
  body: JSON.stringify({ __type: 'NotAuthorizedException', message }),
});

/** The user a successful sign-in's ID token names: its pool (the issuer's last path segment) and username. */
function tokenUser(idToken: unknown): { userPoolId: string; username: string } | undefined {
  if (typeof idToken !== 'string') return undefined;
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      iss?: string;
      'cognito:username'?: string;
    };
    const userPoolId = claims.iss?.split('/').pop();
    const username = claims['cognito:username'];
    return userPoolId && username ? { userPoolId, username } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cognito's answer for cognito-local's answer to a `USER_PASSWORD_AUTH` sign-in (see the module comment).
 *
 * @param answer cognito-local's status and body
 * @param isDisabled whether cognito-local holds the user as disabled (`Enabled: false`, AdminGetUser)
 * @returns the answer to send: rewritten for the cases of the table, else `answer` unchanged
 */
export async function cognitoSignInAnswer(
  answer: Answer,
  isDisabled: (userPoolId: string, username: string) => Promise<boolean>,
): Promise<Answer> {
  let parsed: { __type?: string; message?: string; AuthenticationResult?: { IdToken?: unknown } };
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    return answer;
  }
  if (answer.status === 400) {
    const unknownUser =
      parsed.__type === 'NotAuthorizedException' && parsed.message === 'User not authorized';
    return unknownUser || parsed.__type === 'InvalidPasswordException'
      ? refusal(INCORRECT_CREDENTIALS)
      : answer;
  }
  const user = answer.status === 200 ? tokenUser(parsed.AuthenticationResult?.IdToken) : undefined;
  if (user && (await isDisabled(user.userPoolId, user.username))) return refusal(USER_DISABLED);
  return answer;
}
