import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { Headshot } from '../../../../../functions/contracts/headshot';
import { apiCall, type ApiError } from '../../../lib/api-client';
import { galleryPageSchema } from '../../../lib/api/contracts';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The caller's own headshots that `teamId` paid for, newest first: every page of their gallery (`GET /api/headshots`)
 * kept where the server's `teamId` names the team (docs/teams.md "The screens"), so a member finds them to share on
 * any device.
 * @throws {ApiError} from the API
 */
export async function fetchMyTeamHeadshots(teamId: string, signal?: AbortSignal): Promise<Headshot[]> {
  const mine: Headshot[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ filter: 'all' });
    if (cursor) params.set('cursor', cursor);
    const page = await apiCall(`/headshots?${params}`, galleryPageSchema, { signal });
    mine.push(...page.items.filter((headshot) => headshot.teamId === teamId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return mine;
}

/**
 * {@link fetchMyTeamHeadshots} as a query under the gallery's root key (a new headshot, an edit or a deletion that
 * refreshes the gallery refreshes it); `teamId` null waits.
 */
export function useMyTeamHeadshots(teamId: string | null): UseQueryResult<Headshot[], ApiError> {
  const { status, user } = useAuth();
  return useQuery<Headshot[], ApiError>({
    queryKey: [...queryKeys.headshots.list(user?.sub ?? null, 'team', teamId ?? ''), 'all-pages'],
    queryFn: ({ signal }) => fetchMyTeamHeadshots(teamId!, signal),
    enabled: status === 'signedIn' && teamId !== null,
    staleTime: 60_000,
  });
}
