import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { toast } from 'sonner';
import type { ApiError } from '../lib/api-client';
import {
  fetchAllTeamHeadshots,
  shareHeadshot,
  unshareHeadshot,
  type TeamHeadshot,
} from '../lib/api/team-shares';
import { useAuth } from '../lib/auth';
import { queryKeys } from '../lib/query-keys';

/** What {@link useTeamShares} returns. */
export interface TeamShares {
  /** The caller's headshots shared with the team (the team gallery as a member sees it), once loaded. */
  shared: TeamHeadshot[] | undefined;
  /** Ids of {@link TeamShares.shared}. */
  sharedIds: ReadonlySet<string>;
  /** The headshot being shared or unshared, else null. */
  busyId: string | null;
  share(headshotId: string): void;
  unshare(headshotId: string): void;
}

/**
 * A member's shares with one team (docs/teams.md "Privacy and retention"): which of their headshots the team sees,
 * and sharing or unsharing one (`PUT`/`DELETE /api/teams/{teamId}/shared/{headshotId}`), the team's page and gallery
 * read again after each. A refusal shows the API's sentence.
 */
export function useTeamShares(teamId: string | null): TeamShares {
  const queryClient = useQueryClient();
  const { status, user } = useAuth();
  const sub = user?.sub ?? null;
  const key = queryKeys.teams.part(sub, teamId ?? '', 'headshots');
  const query = useQuery({
    queryKey: [...key, 'all'],
    queryFn: ({ signal }) => fetchAllTeamHeadshots(teamId!, signal),
    enabled: status === 'signedIn' && teamId !== null,
    staleTime: 15_000,
  });
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: queryKeys.teams.one(sub, teamId ?? '') }),
    [queryClient, sub, teamId],
  );
  const change = useMutation({
    mutationFn: async ({ id, share }: { id: string; share: boolean }) => {
      if (share) await shareHeadshot(teamId!, id);
      else await unshareHeadshot(teamId!, id);
    },
    onSettled: refresh,
    onError: (error: ApiError) => toast.error(error.message),
  });
  const sharedIds = useMemo(() => new Set(query.data?.map((item) => item.headshotId)), [query.data]);
  return {
    shared: query.data,
    sharedIds,
    busyId: change.isPending ? change.variables.id : null,
    share: (id) => change.mutate({ id, share: true }),
    unshare: (id) => change.mutate({ id, share: false }),
  };
}
