import { useInfiniteQuery } from '@tanstack/react-query';
import { fetchTeamHeadshots } from '../../../lib/api/team-shares';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The team gallery as an infinite list (`GET /api/teams/{teamId}/headshots`, newest shared first): every shared
 * headshot for the owner and admins, the caller's own shared ones for a member.
 */
export function useTeamGallery(teamId: string) {
  const { status, user } = useAuth();
  return useInfiniteQuery({
    queryKey: queryKeys.teams.part(user?.sub ?? null, teamId, 'headshots'),
    queryFn: ({ pageParam, signal }) => fetchTeamHeadshots(teamId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: status === 'signedIn',
    staleTime: 15_000,
    refetchOnWindowFocus: 'always',
  });
}
