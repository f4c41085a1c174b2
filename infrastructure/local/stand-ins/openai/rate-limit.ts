/*
 * OpenAI-like rate limiting for the stand-in: a per-minute token bucket, and beyond it 429 `rate_limit_exceeded` with
 * `retry-after`, `retry-after-ms` and `x-ratelimit-*` headers (https://platform.openai.com/docs/guides/rate-limits).
 */

/**
 * OpenAI-like rate limit: `limit` images per `windowMs` (a minute by default; tests shorten the window to run a
 * "minute" in seconds), from a token bucket holding at most `burst` images (default: the whole limit).
 */
export interface RateLimit {
  limit: number;
  windowMs?: number;
  burst?: number;
}

/** OpenAI's duration format for `x-ratelimit-reset-*`: `6m0s`, `1s`, `250ms`. */
function resetText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${Number(seconds.toFixed(3))}s`;
  return `${Math.floor(seconds / 60)}m${Number((seconds % 60).toFixed(3))}s`;
}

/** A token bucket like the provider's: `take()` answers whether a call may go, and the headers to send. */
export function createBucket(getLimit: () => RateLimit | undefined) {
  let tokens = Number.NaN;
  let at = Date.now();
  let current: RateLimit | undefined;
  return {
    take(now = Date.now()): { ok: boolean; headers: Record<string, string> } {
      const limit = getLimit();
      if (!limit) return { ok: true, headers: {} };
      const windowMs = limit.windowMs ?? 60_000;
      const burst = limit.burst ?? limit.limit;
      if (limit !== current || Number.isNaN(tokens)) {
        current = limit;
        tokens = burst;
        at = now;
      }
      const perMs = limit.limit / windowMs;
      tokens = Math.min(burst, tokens + (now - at) * perMs);
      at = now;
      const ok = tokens >= 1;
      if (ok) tokens -= 1;
      const untilOne = ok ? 0 : (1 - tokens) / perMs;
      const untilFull = (burst - tokens) / perMs;
      const headers: Record<string, string> = {
        'x-ratelimit-limit-requests': String(limit.limit),
        'x-ratelimit-remaining-requests': String(Math.floor(tokens)),
        'x-ratelimit-reset-requests': resetText(untilFull),
      };
      if (!ok) {
        headers['retry-after'] = String(Math.max(1, Math.ceil(untilOne / 1000)));
        headers['retry-after-ms'] = String(Math.ceil(untilOne));
      }
      return { ok, headers };
    },
  };
}
