import { analyticsBatchSchema } from '../contracts/analytics';
import { MAX_BODY_BYTES } from '../domain/analytics';
import { recordAnalyticsEvents } from '../use-cases/record-analytics-events';
import { HttpError } from './errors';
import { httpHandler, json, parseBody, rawBody } from './handler';

/**
 * `POST /api/analytics/events` (public) `{ events: [{ name, ts, sessionId, anonymousId, path?, props? }] }` →
 * 202 `{ accepted }`.
 *
 * Public so page views before sign-in count; the route has no authorizer, so when an `Authorization: Bearer` token
 * is present it is verified here with the same verifier as the API's JWT authorizer and its `sub` is attached to
 * every record (an invalid or expired token is ignored, never trusted). Strings are cut at 256 characters.
 *
 * Errors: 413 `PAYLOAD_TOO_LARGE` (body over 64 KiB), 400 `VALIDATION_ERROR` (schema: 1-25 events of the known
 * client names; `purchase_completed` is server-only; refused before it counts), 429 `QUOTA_EXCEEDED` with `Retry-After` (more than
 * `ANALYTICS_REQUESTS_PER_MINUTE` requests from one IP in a minute; the per-user quota counters, keyed by the
 * address's hash).
 */
export const handler = httpHandler(async (event) => {
  if (Buffer.byteLength(rawBody(event)) > MAX_BODY_BYTES) {
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Too many analytics events in one request.');
  }
  const { events } = parseBody(event, analyticsBatchSchema);
  const result = await recordAnalyticsEvents({
    sourceIp: event.requestContext.http.sourceIp,
    authorization: event.headers.authorization,
    events,
  });
  return json(202, result);
});
