import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import * as z from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { track } from '../../../lib/analytics';

/**
 * Step 1's photo checks: `POST /api/photo-checks` for the stored photos (contract: functions/http/create-photo-checks.ts).
 * The server caches each photo's analysis by object, so asking again for the whole set as photos arrive only
 * analyses the new ones; the set's identity check (a different person) is redone each time.
 */

export const photoCheckSchema = z.object({
  key: z.string(),
  verdict: z.enum(['good', 'warning', 'rejected']),
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.object({ code: z.string(), message: z.string() })),
});

/** One photo's check: `rejected` photos are not used for the headshots. */
export type PhotoCheck = z.infer<typeof photoCheckSchema>;

const photoChecksResponseSchema = z.object({
  checks: z.array(photoCheckSchema),
  quality: z.number().int().min(0).max(100),
});

/** The checks of a set of photos and the set's quality (0-100). */
export type PhotoChecks = z.infer<typeof photoChecksResponseSchema>;

/** Checks the photos stored under `keys` (1-10, in the wizard's order). */
export async function fetchPhotoChecks(keys: readonly string[], signal?: AbortSignal): Promise<PhotoChecks> {
  const body = await apiFetch<unknown>('/photo-checks', { method: 'POST', body: { keys }, signal });
  const checks = photoChecksResponseSchema.parse(body);
  track('photo_check', {
    photos: checks.checks.length,
    quality: checks.quality,
    rejected: checks.checks.filter((check) => check.verdict === 'rejected').length,
    warnings: checks.checks.filter((check) => check.verdict === 'warning').length,
  });
  return checks;
}

/** Waits this long after the last photo finished uploading before checking the set (photos arrive in bursts). */
const SETTLE_MS = 400;

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What step 1 needs from the checks. */
export interface PhotoCheckState {
  /** The check of each stored photo, by key (absent while it is being checked). */
  byKey: ReadonlyMap<string, PhotoCheck>;
  /** The set's quality (0-100), once checked. */
  quality: number | null;
  /** The current set is being checked. */
  checking: boolean;
  /** Keys whose photo may be used: every stored photo that is not rejected. */
  usableKeys: string[];
}

/**
 * Checks the stored photos whenever the set changes (after a short pause). Until a photo's check arrives it counts
 * as usable: the server checks every photo again before generating anyway.
 */
export function usePhotoChecks(uploadedKeys: readonly string[]): PhotoCheckState {
  const keys = useSettled(uploadedKeys.join('\n'), SETTLE_MS);
  const list = keys === '' ? [] : keys.split('\n');
  const query = useQuery({
    queryKey: ['photo-checks', keys],
    queryFn: ({ signal }) => fetchPhotoChecks(list, signal),
    enabled: list.length > 0,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const byKey = new Map((query.data?.checks ?? []).map((check) => [check.key, check]));
  const current = list.length > 0 && query.data !== undefined && !query.isPlaceholderData;
  return {
    byKey,
    quality: current ? query.data.quality : null,
    checking: list.length > 0 && (query.isFetching || keys !== uploadedKeys.join('\n')),
    usableKeys: uploadedKeys.filter((key) => byKey.get(key)?.verdict !== 'rejected'),
  };
}
