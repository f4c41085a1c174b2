/**
 * What happens to a slot after one provider call (docs/architecture.md §4): a saved headshot ends it; a
 * 429 sends it back in line for as long as the provider says (no retry limit: only the generation's deadline ends
 * its wait); a few transient failures, and a provider image we lost, go back in line a bounded number of times;
 * everything else (a refusal, `insufficient_quota`, an undecodable image, a closed generation) fails the slot at once
 * and Finalize refunds it.
 * Pure: the release task applies it.
 */

/** The error names of a failed call that go back in line, with how many times per slot. */
export const RETRIES_PER_SLOT: Readonly<Record<string, number>> = {
  /** A headshot that does not look like its customer is made once more, then refunded. */
  LikenessRejected: 1,
  /** 5xx or a dropped connection. */
  ProviderUnavailableError: 2,
  /** No answer within the client timeout. */
  ProviderTimeoutError: 1,
  /**
   * The provider answered with an image but FinishHeadshot found none at its work key: our fault, not the
   * customer's, so the slot is called once more (not charged to the day's count, domain/likeness-cap.ts), then
   * refunded (docs/decisions/022-missing-work-image.md).
   */
  ProviderImageMissingError: 1,
};

/** Retries used so far, by error name. */
export type RetryCounts = Record<string, number>;

/** The next step of the slot: `done` (saved), `acquire` (back in line) or `fail` (refund). */
export type SlotNext = 'done' | 'acquire' | 'fail';

/**
 * Decides the slot's next step after a call that ended with `outcome`.
 *
 * @param outcome `saved`, `throttled`, or the failed call's error name (the Step Functions `Error`)
 * @returns the next step, the updated retry counts and, for `fail`, the error name
 */
export function nextAfterCall(
  outcome: string,
  retries: RetryCounts,
): { next: SlotNext; retries: RetryCounts; error: string | null } {
  if (outcome === 'saved') return { next: 'done', retries, error: null };
  if (outcome === 'throttled') return { next: 'acquire', retries, error: null };
  const allowed = RETRIES_PER_SLOT[outcome] ?? 0;
  const used = retries[outcome] ?? 0;
  if (used < allowed) return { next: 'acquire', retries: { ...retries, [outcome]: used + 1 }, error: null };
  return { next: 'fail', retries, error: outcome };
}

/**
 * OpenAI's reset durations (`x-ratelimit-reset-requests: 6m0s`, `1s`, `20ms`, `1m30.5s`) in ms; `undefined` when the
 * text is not one.
 */
export function parseResetDuration(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim()) return undefined;
  const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0));
}

/**
 * How long a 429 asks us to wait, in ms, from its headers: `retry-after-ms`, else `retry-after` (seconds or an HTTP
 * date), else the longest `x-ratelimit-reset-*` whose `x-ratelimit-remaining-*` is 0 (or the longest of all).
 * `undefined` when none says.
 *
 * @param get reads one header by lower-case name
 * @param now epoch ms, for an HTTP-date `retry-after`
 */
export function retryAfterMs(
  get: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const after = get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const resets: { ms: number; exhausted: boolean }[] = [];
  for (const kind of ['requests', 'tokens', 'images']) {
    const reset = get(`x-ratelimit-reset-${kind}`);
    const value = reset ? parseResetDuration(reset) : undefined;
    if (value !== undefined)
      resets.push({ ms: value, exhausted: get(`x-ratelimit-remaining-${kind}`) === '0' });
  }
  const chosen = resets.some((r) => r.exhausted) ? resets.filter((r) => r.exhausted) : resets;
  return chosen.length ? Math.max(...chosen.map((r) => r.ms)) : undefined;
}
