import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError } from '../lib/api-client';
import { getGeneration, isFinished, type Generation } from '../lib/api/get-generation';
import { queryKeys } from '../lib/query-keys';

/** How often the wizard asks for progress while a generation runs, in ms (about every 1.5 s). */
export const POLL_INTERVAL_MS = 1500;
/** The longest interval between two polls while the generation waits in line, in ms. */
export const QUEUED_POLL_MAX_MS = 10_000;

/**
 * The next poll's delay: 1.5 s while the generation runs; while it waits in line, 1.5 s growing by a quarter of the
 * time already spent waiting, up to 10 s (a place in line changes slowly; a running generation changes every few
 * seconds).
 *
 * @param queuedForMs how long the generation has been seen waiting in line, ms (0 when it is not)
 */
export function pollIntervalMs(queuedForMs: number): number {
  return Math.min(QUEUED_POLL_MAX_MS, POLL_INTERVAL_MS + queuedForMs / 4);
}

/** The react-query key of one generation. */
export const generationQueryKey = queryKeys.generation;

/** Presigned URLs kept across polls must stay valid at least this long, in ms; older ones are replaced. */
const URL_FRESHNESS_MS = 60_000;

/**
 * Keeps the URLs of headshots already on screen from one poll to the next. Every `GET /api/generations/{id}` signs
 * fresh URLs (a new signature each second), and a changed `src` would make the browser download every image again
 * on every poll; so a headshot keeps the URLs it was first shown with until they are about to expire.
 */
export function keepHeadshotUrls(
  previous: Generation | undefined,
  next: Generation,
  now = Date.now(),
): Generation {
  if (!previous || previous.id !== next.id) return next;
  if (Date.parse(previous.urlsExpireAt) - now < URL_FRESHNESS_MS) return next;
  const before = new Map(previous.headshots.map((h) => [h.id, h]));
  let kept = false;
  const headshots = next.headshots.map((h) => {
    const old = before.get(h.id);
    if (!old) return h;
    kept = true;
    return {
      ...h,
      thumbnailUrl: old.thumbnailUrl,
      imageUrl: old.imageUrl,
      downloadUrl: old.downloadUrl,
      variants: old.variants,
    };
  });
  // The earliest expiry of any URL in use, so a download knows when to ask for fresh ones.
  return kept ? { ...next, headshots, urlsExpireAt: previous.urlsExpireAt } : next;
}

/**
 * Polls `GET /api/generations/{id}` about every 1.5 s until the status is succeeded, partial or failed (docs/product-spec.md §2
 * step 4, §4), backing off to 10 s while the generation waits in line ({@link pollIntervalMs}). Polling pauses while
 * the tab is hidden and resumes at once when it is shown again. Each answer carries the headshots saved so far, so
 * the results grid fills in as they arrive. A 404 is final; network errors and 5xx are retried by the next poll.
 */
export function useGeneration(id: string | null): UseQueryResult<Generation, ApiError> {
  const queuedSince = useRef<number | null>(null);
  return useQuery<Generation, ApiError>({
    queryKey: generationQueryKey(id),
    queryFn: ({ signal }) => getGeneration(id as string, signal),
    enabled: id !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (isFinished(data?.status)) return false;
      const queued = (data?.queue?.position ?? 0) > 0;
      if (!queued) queuedSince.current = null;
      else queuedSince.current ??= Date.now();
      return pollIntervalMs(queuedSince.current === null ? 0 : Date.now() - queuedSince.current);
    },
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 3,
    retryDelay: POLL_INTERVAL_MS,
    staleTime: Infinity,
    structuralSharing: (previous, next) =>
      keepHeadshotUrls(previous as Generation | undefined, next as Generation),
  });
}

/**
 * The latest answer of {@link useGeneration} for `id`, read from the cache without polling (for components beside
 * the one that polls, e.g. the wizard's header): two polling observers would double the request rate.
 */
export function useGenerationSnapshot(id: string | null): Generation | undefined {
  return useQuery<Generation, ApiError>({
    queryKey: generationQueryKey(id),
    queryFn: ({ signal }) => getGeneration(id as string, signal),
    enabled: false,
  }).data;
}
