import { deleteAccount } from '../use-cases/delete-account';
import { callerOf, httpHandler, noContent, type HttpEvent } from './handler';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

/** The user pool username of the caller: `cognito:username` (ID token) or `username` (access token), else e-mail or sub. */
function usernameOf(event: HttpEvent, fallback: string): string {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext.authorizer?.jwt?.claims;
  const name = claims?.['cognito:username'] ?? claims?.username;
  return typeof name === 'string' && name !== '' ? name : fallback;
}

/**
 * `DELETE /api/me` (jwt) → 204, no body: the caller's account is deleted (use-cases/delete-account.ts): the Cognito
 * user, every photo, headshot and generation (and their shares with teams), the e-mail; the caller leaves every team
 * (a team they own alone is closed); purchases and the credit ledger are kept under a pseudonymous id for accounting.
 * Calling it again is harmless (204).
 *
 * Errors: 409 `GENERATION_IN_PROGRESS` `{ details: { generationId } }` while a generation of the caller is still
 * running (nothing is deleted: try again when it has finished); 409 `TEAM_OWNER_CANNOT_DELETE_ACCOUNT`
 * `{ details: { teamId, teamName } }` while the caller owns a team others are in (nothing is deleted: hand it over
 * first, docs/teams.md "Privacy and retention").
 */
export const handler = httpHandler(async (event) => {
  const { sub, email } = callerOf(event);
  await deleteAccount({ sub, username: usernameOf(event, email ?? sub) });
  return noContent();
});
