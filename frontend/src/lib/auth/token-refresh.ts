/**
 * When the SPA refreshes its Cognito session (docs/product-spec.md §4 "States and transitions": tokens refresh when
 * the access token is within 30 seconds of expiry; §9: refresh margin 30 seconds). Amplify alone refreshes only 5
 * seconds before expiry, too late for a request that is queued or slow to reach the API.
 */

/** Refresh this long before the access token expires, in ms. */
export const REFRESH_MARGIN_MS = 30_000;

/**
 * Whether a token whose `exp` claim is `expSeconds` (seconds since the epoch) must be refreshed now: it expires
 * within {@link REFRESH_MARGIN_MS}, or carries no expiry at all.
 */
export function needsRefresh(expSeconds: number | undefined, nowMs: number = Date.now()): boolean {
  if (typeof expSeconds !== 'number' || !Number.isFinite(expSeconds)) return true;
  return expSeconds * 1000 - nowMs <= REFRESH_MARGIN_MS;
}
