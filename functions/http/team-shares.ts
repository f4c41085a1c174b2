import { shareHeadshotBody, type ShareHeadshotBody, type TeamHeadshot } from '../contracts/teams';
import { shareHeadshot } from '../use-cases/team-shares';
import { unshareHeadshot } from '../use-cases/unshare-team-headshot';
import { callerOf, httpHandler, json, noContent, parseBody, rawBody } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * A member's shares with a team (docs/teams.md "Sharing and the team gallery"): two routes, one function, since the
 * stack's every function costs CloudFormation resources of its 500 (docs/teams.md "Building on it").
 *
 * `PUT /api/teams/{teamId}/shared/{headshotId}` (jwt, any member), optional body `{versionId?}` → 200 the shared
 * headshot as the team gallery shows it (contracts/teams.ts `teamHeadshotSchema`): one of the caller's own team
 * headshots (or one of its versions) joins the team's gallery. Idempotent. Errors: 404 `TEAM_NOT_FOUND` (not a
 * member), 404 `NOT_FOUND` 'Headshot not found.' (not the caller's headshot or version), 404 `NOT_A_TEAM_HEADSHOT`
 * (the caller's, but not made with this team's seats), 400 `VALIDATION_ERROR`.
 *
 * `DELETE /api/teams/{teamId}/shared/{headshotId}` (jwt, any member) → 204: the caller's headshot leaves the team's
 * gallery; it stays theirs. Idempotent: a headshot not shared (or not theirs) changes nothing. Errors: 404
 * `TEAM_NOT_FOUND`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  const headshotId = pathParam(event, 'headshotId');
  if (event.requestContext.http.method === 'DELETE') {
    await unshareHeadshot(teamId, sub, headshotId);
    return noContent();
  }
  const body: ShareHeadshotBody = rawBody(event).trim() === '' ? {} : parseBody(event, shareHeadshotBody);
  return json<TeamHeadshot>(200, await shareHeadshot(teamId, sub, headshotId, body.versionId));
});
