import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from '../../../lib/query-keys';
import { fetchPhotoChecks, type PhotoCheck } from '../api/check-photos';

export type { PhotoCheck };

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
  /**
   * The check's `mixed_people` sentence when the photos show different people and none is a majority ('Your photos
   * seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.'),
   * else null. Such a set cannot be generated from (the server refuses it: 409 `MIXED_PEOPLE`) until the customer
   * removes the photos that aren't them (docs/decisions/012-small-set-identity.md, amended by issue 33).
   */
  mixedPeople: string | null;
}

/** The `mixed_people` sentence of the first of `keys` whose check has it, or null. */
function mixedPeopleOf(keys: readonly string[], byKey: ReadonlyMap<string, PhotoCheck>): string | null {
  for (const key of keys) {
    const reason = byKey.get(key)?.reasons.find((r) => r.code === 'mixed_people');
    if (reason) return reason.message;
  }
  return null;
}

/**
 * Checks the stored photos whenever the set changes (after a short pause). Until a photo's check arrives it counts
 * as usable: the server checks every photo again before generating anyway. While a changed set is re-checked, the
 * previous answer stands for the photos it covered (a set that mixed people stays refused until its new check).
 */
export function usePhotoChecks(uploadedKeys: readonly string[]): PhotoCheckState {
  const keys = useSettled(uploadedKeys.join('\n'), SETTLE_MS);
  const list = keys === '' ? [] : keys.split('\n');
  const query = useQuery({
    queryKey: queryKeys.photoChecks(keys),
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
    mixedPeople: mixedPeopleOf(uploadedKeys, byKey),
  };
}
