import {
  teamHeadshotSchema,
  teamHeadshotsPageSchema,
  type TeamHeadshot,
  type TeamHeadshotsPage,
} from '../../../../functions/contracts/teams';
import { apiCall, apiFetch } from '../api-client';

export type { TeamHeadshot, TeamHeadshotsPage };

const teamPath = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

/**
 * `PUT /api/teams/{teamId}/shared/{headshotId}`: shares one of the caller's own team headshots with the team
 * (docs/teams.md "Privacy and retention": the member's choice; the team sees only what is shared).
 * @throws {ApiError} 404 for a headshot that is not the caller's team headshot
 */
export function shareHeadshot(teamId: string, headshotId: string): Promise<TeamHeadshot> {
  // The body may name a version (issue 36); `{}` shares the headshot's own files.
  return apiCall(`${teamPath(teamId)}/shared/${encodeURIComponent(headshotId)}`, teamHeadshotSchema, {
    method: 'PUT',
    body: {},
  });
}

/** `DELETE /api/teams/{teamId}/shared/{headshotId}` (204): the headshot leaves the team's gallery; it stays the member's. */
export async function unshareHeadshot(teamId: string, headshotId: string): Promise<void> {
  await apiFetch<unknown>(`${teamPath(teamId)}/shared/${encodeURIComponent(headshotId)}`, {
    method: 'DELETE',
  });
}

/**
 * `GET /api/teams/{teamId}/headshots?cursor=`: one page of the team gallery, newest shared first (the owner and
 * admins: every shared headshot; a member: their own shared ones).
 */
export function fetchTeamHeadshots(
  teamId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<TeamHeadshotsPage> {
  const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
  return apiCall(`${teamPath(teamId)}/headshots${query}`, teamHeadshotsPageSchema, { signal });
}

/** Every page of the team gallery ({@link fetchTeamHeadshots}), in order. */
export async function fetchAllTeamHeadshots(teamId: string, signal?: AbortSignal): Promise<TeamHeadshot[]> {
  const items: TeamHeadshot[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchTeamHeadshots(teamId, cursor, signal);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
