import { createHash } from 'node:crypto';
import { recordAnalytics } from '../adapters/analytics-sink';
import { consumeQuota } from '../adapters/quotas';
import { verifiedSub } from '../adapters/token-verifier';
import { analyticsSettings } from '../config/analytics';
import { toClientRecord, type ClientEvent } from '../domain/analytics';
import type { QuotaRule } from '../domain/quotas';

/** What recording the browser's events needs: the per-address quota, the token's verification, the sink. */
export interface RecordAnalyticsEventsPorts {
  consumeQuota: typeof consumeQuota;
  /** The `sub` of a valid token of our pool in the `Authorization` header, else null (never an error). */
  verifiedSub: typeof verifiedSub;
  recordAnalytics: typeof recordAnalytics;
}

const adapters: RecordAnalyticsEventsPorts = { consumeQuota, verifiedSub, recordAnalytics };

/** The browser's events of one request, with where they came from. */
export interface AnalyticsRequest {
  /** The client's address (API Gateway's `sourceIp`): the quota counts per address, stored only as a hash. */
  sourceIp: string;
  /** The request's `Authorization` header, when it carries one. */
  authorization: string | undefined;
  /** 1-25 events, already checked against the contract. */
  events: ClientEvent[];
}

/** `ANALYTICS_REQUESTS_PER_MINUTE` requests per client address per minute. */
function analyticsQuota(): QuotaRule {
  return {
    name: 'analytics-events',
    limit: analyticsSettings().ANALYTICS_REQUESTS_PER_MINUTE,
    windowSeconds: 60,
    noun: 'analytics requests',
  };
}

/**
 * Records the browser's analytics events, `POST /api/analytics/events` (docs/architecture.md §8 "analytics"): counts
 * the request against its address's per-minute quota (no user to count against before sign-in; the address is kept
 * only as a hash), attaches the `sub` of a valid token of our pool to every record (an invalid or expired token is
 * ignored, never trusted), and stores the records with their strings cut at 256 characters.
 *
 * @param now the records' receipt time (tests)
 * @returns how many events were accepted
 * @throws {QuotaExceededError} past the address's quota (nothing recorded); the sink's errors
 */
export async function recordAnalyticsEvents(
  request: AnalyticsRequest,
  now = new Date(),
  ports: RecordAnalyticsEventsPorts = adapters,
): Promise<{ accepted: number }> {
  const ip = createHash('sha256').update(request.sourceIp).digest('hex').slice(0, 32);
  await ports.consumeQuota({ sub: `anon#ip-${ip}` }, analyticsQuota());
  const sub = await ports.verifiedSub(request.authorization);
  await ports.recordAnalytics(request.events.map((event) => toClientRecord(event, sub, now)));
  return { accepted: request.events.length };
}
