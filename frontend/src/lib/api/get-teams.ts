import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { teamSchema, teamsSchema, type Team, type Teams } from '../../../../functions/contracts/teams';
import { apiCall, type ApiError } from '../api-client';
import { useAuth } from '../auth/auth-context';
import { queryKeys } from '../query-keys';

export type { Team, Teams };

/**
 * `GET /api/teams`: the caller's teams (issue 37, docs/teams.md "Routes"), oldest joined first, each with the
 * caller's role.
 * @throws {ApiError} from the API, or `INVALID_RESPONSE`
 */
export function fetchTeams(signal?: AbortSignal): Promise<Teams> {
  return apiCall('/teams', teamsSchema, { signal });
}

/**
 * `GET /api/teams/{teamId}`: the team's name, look and the caller's own seat (`me`), and for the owner and admins its
 * running (`admin`: domains, balance, members, invitations); `admin` is null for a plain member.
 * @throws {ApiError} 404 `TEAM_NOT_FOUND` for anyone not a current member (the sentence says so)
 */
export function fetchTeam(teamId: string, signal?: AbortSignal): Promise<Team> {
  return apiCall(`/teams/${encodeURIComponent(teamId)}`, teamSchema, { signal });
}

/** The caller's teams ({@link fetchTeams}), while signed in. */
export function useTeams(): UseQueryResult<Teams, ApiError> {
  const { status, user } = useAuth();
  return useQuery<Teams, ApiError>({
    queryKey: queryKeys.teams.mine(user?.sub ?? null),
    queryFn: ({ signal }) => fetchTeams(signal),
    enabled: status === 'signedIn',
    staleTime: 30_000,
  });
}

/**
 * One team as the caller may see it ({@link fetchTeam}); `teamId` null waits. Read again when the window regains
 * focus: members join, generate and share from their own devices.
 */
export function useTeam(teamId: string | null): UseQueryResult<Team, ApiError> {
  const { status, user } = useAuth();
  return useQuery<Team, ApiError>({
    queryKey: queryKeys.teams.one(user?.sub ?? null, teamId ?? ''),
    queryFn: ({ signal }) => fetchTeam(teamId!, signal),
    enabled: status === 'signedIn' && teamId !== null,
    staleTime: 15_000,
    refetchOnWindowFocus: 'always',
  });
}
