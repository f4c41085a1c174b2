import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  teamMemberSchema,
  teamSchema,
  type CreateTeamBody,
  type Team,
  type TeamMember,
  type UpdateTeamBody,
} from '../../../../../functions/contracts/teams';
import type { TeamRole } from '../../../../../functions/domain/teams';
import { apiCall, apiFetch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/** The API path of one team. */
export const teamPath = (teamId: string) => `/teams/${encodeURIComponent(teamId)}`;

/**
 * `POST /api/teams`: creates a team; the caller becomes its owner.
 * @throws {ApiError} 400 `TEAM_DOMAIN_NOT_ALLOWED` (a public mail domain, its sentence naming it), 429 `QUOTA_EXCEEDED`
 */
export function createTeam(body: CreateTeamBody): Promise<Team> {
  return apiCall('/teams', teamSchema, { method: 'POST', body });
}

/** `PATCH /api/teams/{teamId}` (owner/admin): name, domains or look. */
export function updateTeam(teamId: string, body: UpdateTeamBody): Promise<Team> {
  return apiCall(teamPath(teamId), teamSchema, { method: 'PATCH', body });
}

/** `PUT /api/teams/{teamId}/members/{sub}` (owner): admin, member, or `owner` (hands the team over). */
export function setMemberRole(teamId: string, sub: string, role: TeamRole): Promise<TeamMember> {
  return apiCall(`${teamPath(teamId)}/members/${encodeURIComponent(sub)}`, teamMemberSchema, {
    method: 'PUT',
    body: { role },
  });
}

/** `DELETE /api/teams/{teamId}/members/{sub}` (204): removes a member (owner/admin), or leaves (the caller's own sub). */
export async function removeMember(teamId: string, sub: string): Promise<void> {
  await apiFetch<unknown>(`${teamPath(teamId)}/members/${encodeURIComponent(sub)}`, { method: 'DELETE' });
}

/**
 * Refreshes what the caller sees of `teamId` (its page, links, purchases, gallery) and their list of teams, after a
 * change. Returns a stable function.
 */
export function useRefreshTeam(teamId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const sub = user?.sub ?? null;
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.teams.one(sub, teamId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.teams.mine(sub) }),
    ]);
  }, [queryClient, sub, teamId]);
}
