/** Small number helpers of the benchmark: percentiles, medians and the units the table prints. */

/**
 * The `p`-th percentile (0-100) of `values` by the nearest-rank method (the value at rank ⌈p/100 · n⌉ of the sorted
 * list); `NaN` for an empty list.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** The median (50th percentile, nearest rank). */
export const median = (values: readonly number[]) => percentile(values, 50);

/** Milliseconds as `12.3 ms` (below 100) or `1,234 ms`. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value).toLocaleString('en-US')} ms`;
}

/** Bytes as `532 B`, `12.4 KB` or `1.23 MB` (1 KB = 1,000 B, as bundle analysers and Lighthouse print them). */
export function bytes(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value < 1000) return `${value} B`;
  if (value < 1_000_000) return `${(value / 1000).toFixed(1)} KB`;
  return `${(value / 1_000_000).toFixed(2)} MB`;
}

/** A ratio as `×1.23`; `n/a` when it cannot be computed. */
export function ratio(value: number, reference: number): string {
  const r = value / reference;
  return Number.isFinite(r) ? `×${r.toFixed(2)}` : 'n/a';
}

/** A per-second rate as `1,234/s`. */
export function rate(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${Math.round(value).toLocaleString('en-US')}/s`;
}
