import { shareHeadshotBody, type ShareHeadshotBody, type TeamHeadshot } from '../contracts/teams';
import { removeMember } from '../use-cases/remove-team-member';
import { shareHeadshot } from '../use-cases/team-shares';
import { unshareHeadshot } from '../use-cases/unshare-team-headshot';
import { callerOf, httpHandler, json, noContent, parseBody, rawBody, type HttpEvent } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * A member's place in a team: leaving or being removed, and their shares (docs/teams.md "Roles", "Sharing and the
 * team gallery") — three routes, one function, since every function costs CloudFormation resources of the stack's
 * 500 (docs/teams.md "Building on it"). Each route calls its one use case.
 */

/**
 * `DELETE /api/teams/{teamId}/members/{sub}` (jwt) → 204: removes a member (owner/admin; an admin only members), or
 * with the caller's own `sub`, leaves. Their shared headshots leave the team; their own stay theirs.
 *
 * Errors: 404 `TEAM_NOT_FOUND` / `TEAM_MEMBER_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 409 `TEAM_OWNER_CANNOT_LEAVE`.
 */
async function remove(event: HttpEvent, sub: string) {
  await removeMember(teamIdOf(event), sub, pathParam(event, 'sub'));
  return noContent();
}

/**
 * `PUT /api/teams/{teamId}/shared/{headshotId}` (jwt, any member), optional body `{versionId?}` → 200 the shared
 * headshot as the team gallery shows it (contracts/teams.ts `teamHeadshotSchema`): one of the caller's own team
 * headshots (or one of its versions) joins the team's gallery. Idempotent.
 *
 * Errors: 404 `TEAM_NOT_FOUND` (not a member), 404 `NOT_FOUND` 'Headshot not found.' (not the caller's headshot or
 * version), 404 `NOT_A_TEAM_HEADSHOT` (the caller's, but not made with this team's seats), 400 `VALIDATION_ERROR`.
 */
async function share(event: HttpEvent, sub: string) {
  const teamId = teamIdOf(event);
  const body: ShareHeadshotBody = rawBody(event).trim() === '' ? {} : parseBody(event, shareHeadshotBody);
  const shared = await shareHeadshot(teamId, sub, pathParam(event, 'headshotId'), body.versionId);
  return json<TeamHeadshot>(200, shared);
}

/**
 * `DELETE /api/teams/{teamId}/shared/{headshotId}` (jwt, any member) → 204: the caller's headshot leaves the team's
 * gallery; it stays theirs. Idempotent: a headshot not shared (or not theirs) changes nothing.
 *
 * Errors: 404 `TEAM_NOT_FOUND` (not a member).
 */
async function unshare(event: HttpEvent, sub: string) {
  await unshareHeadshot(teamIdOf(event), sub, pathParam(event, 'headshotId'));
  return noContent();
}

const ROUTES = {
  'DELETE /api/teams/{teamId}/members/{sub}': remove,
  'PUT /api/teams/{teamId}/shared/{headshotId}': share,
  'DELETE /api/teams/{teamId}/shared/{headshotId}': unshare,
} as const;

export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const route = ROUTES[event.routeKey as keyof typeof ROUTES] as
    (typeof ROUTES)[keyof typeof ROUTES] | undefined;
  // The route table sends only these three here; anything else is no route of this function.
  if (!route) throw new Error(`http/team-membership does not serve ${event.routeKey}`);
  return route(event, sub);
});
