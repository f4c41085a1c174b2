import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { apiCall, type ApiError } from '../../../lib/api-client';
import { headshotVersionsSchema, type HeadshotVersion } from '../../../lib/api/contracts';
import { useAuth } from '../../../lib/auth';

export type { HeadshotVersion };

/**
 * The react-query key of one headshot's versions. Its own root, not under `headshots` (whose every entry is a gallery
 * list: lib/api/headshot-cache.ts rewrites them all as pages).
 */
export const versionsQueryKey = (sub: string | null, headshotId: string) =>
  ['versions', sub, headshotId] as const;

/** Presigned URLs live 15 minutes: the list is read again after 10, so no version's link on screen expires. */
const URL_REFRESH_MS = 10 * 60_000;

/**
 * `GET /api/headshots/{id}/versions` (functions/contracts/edits.ts): the headshot's versions, oldest first; the
 * original is the headshot itself and is not among them.
 * @throws {ApiError} from the API (404: the headshot is gone), or `INVALID_RESPONSE` when the answer is not a list
 */
export async function fetchVersions(headshotId: string, signal?: AbortSignal): Promise<HeadshotVersion[]> {
  const answer = await apiCall(
    `/headshots/${encodeURIComponent(headshotId)}/versions`,
    headshotVersionsSchema,
    {
      signal,
    },
  );
  return answer.versions;
}

/** One headshot's versions ({@link fetchVersions}) while signed in, for the viewer's Versions strip. */
export function useVersions(headshotId: string): UseQueryResult<HeadshotVersion[], ApiError> {
  const { status, user } = useAuth();
  return useQuery<HeadshotVersion[], ApiError>({
    queryKey: versionsQueryKey(user?.sub ?? null, headshotId),
    queryFn: ({ signal }) => fetchVersions(headshotId, signal),
    enabled: status === 'signedIn',
    staleTime: 60_000,
    refetchInterval: URL_REFRESH_MS,
  });
}
