import { createTokenVerifier, bearerToken, type TokenVerifier } from '../adapters/token-verifier';
import { recordAnalytics } from '../adapters/analytics-sink';
import { createHash } from 'node:crypto';
import { consumeQuota } from '../adapters/quotas';
import { analyticsSettings } from '../config/analytics';
import { cognitoSettings } from '../config/cognito';
import { analyticsBatchSchema } from '../contracts/analytics';
import { MAX_BODY_BYTES, toClientRecord } from '../domain/analytics';
import { HttpError } from './errors';
import { httpHandler, json, parseBody, rawBody, type HttpEvent } from './handler';

/** `ANALYTICS_REQUESTS_PER_MINUTE` requests per client address per minute. */
function analyticsQuota() {
  return {
    name: 'analytics-events',
    limit: analyticsSettings().ANALYTICS_REQUESTS_PER_MINUTE,
    windowSeconds: 60,
    noun: 'analytics requests',
  };
}

let verifier: Promise<TokenVerifier | undefined> | undefined;

/** The token verifier of this cold start; `undefined` when the pool is not configured (then no sub is attached). */
function tokenVerifier(): Promise<TokenVerifier | undefined> {
  const { COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID, COGNITO_ENDPOINT } = cognitoSettings();
  if (!COGNITO_USER_POOL_ID || !COGNITO_CLIENT_ID) return Promise.resolve(undefined);
  verifier ??= createTokenVerifier({
    userPoolId: COGNITO_USER_POOL_ID,
    clientId: COGNITO_CLIENT_ID,
    cognitoEndpoint: COGNITO_ENDPOINT,
  }).catch((error: unknown) => {
    verifier = undefined; // try again on the next request
    throw error;
  });
  return verifier;
}

/** The caller's `sub` when the request carries a valid token of our pool; anonymous otherwise (never an error). */
async function subOf(event: HttpEvent): Promise<string | null> {
  const token = bearerToken(event.headers.authorization);
  if (!token) return null;
  const payload = await (await tokenVerifier())?.verify(token);
  return typeof payload?.sub === 'string' ? payload.sub : null;
}

/**
 * `POST /api/analytics/events` (public) `{ events: [{ name, ts, sessionId, anonymousId, path?, props? }] }` →
 * 202 `{ accepted }`.
 *
 * Public so page views before sign-in count; the route has no authorizer, so when an `Authorization: Bearer` token
 * is present it is verified here with the same verifier as the API's JWT authorizer and its `sub` is attached to
 * every record (an invalid or expired token is ignored, never trusted). Strings are cut at 256 characters.
 *
 * Errors: 413 `PAYLOAD_TOO_LARGE` (body over 64 KiB), 400 `VALIDATION_ERROR` (schema: 1-25 events of the known
 * client names; `purchase_completed` is server-only), 429 `QUOTA_EXCEEDED` with `Retry-After` (more than
 * `ANALYTICS_REQUESTS_PER_MINUTE` requests from one IP in a minute; the per-user quota counters, keyed by the
 * address's hash).
 */
export const handler = httpHandler(async (event) => {
  if (Buffer.byteLength(rawBody(event)) > MAX_BODY_BYTES) {
    throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Too many analytics events in one request.');
  }
  // No user to count against before sign-in: the quota counts per client address, stored only as a hash.
  const ip = createHash('sha256').update(event.requestContext.http.sourceIp).digest('hex').slice(0, 32);
  await consumeQuota({ sub: `anon#ip-${ip}` }, analyticsQuota());
  const body = parseBody(event, analyticsBatchSchema);
  const sub = await subOf(event);
  const now = new Date();
  await recordAnalytics(body.events.map((e) => toClientRecord(e, sub, now)));
  return json(202, { accepted: body.events.length });
});
