import fc from 'fast-check';
import Stripe from 'stripe';
import { inject } from 'vitest';
import { body, bodyHeaders, queryString } from './arbitraries';
import { isCheckoutSessionId } from '../../functions/domain/checkout';
import type { RawRequest } from './requests';
import type { TestUser } from '../helpers/cognito';

/*
 * Generated raw requests for the route fuzzing (test/integration/adversarial-fuzz.test.ts): authorization headers,
 * a route's request from generated parts, and Stripe webhook deliveries — signed right, signed wrong, or not at all.
 */

/** Mostly the user's ID token; sometimes the access token, garbage, an empty bearer or nothing (→ 401). */
export const authorization = (user: TestUser): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${user.idToken}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${user.accessToken}`) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer ', 'Basic Zm9vOmJhcg==', `bearer ${user.idToken}x`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** Builds the request of a route from generated parts. */
export function requestOf(
  method: string,
  path: fc.Arbitrary<string>,
  parts: {
    auth?: fc.Arbitrary<string | undefined>;
    query?: fc.Arbitrary<string>;
    body?: fc.Arbitrary<string | Uint8Array | undefined>;
  },
): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      path,
      auth: parts.auth ?? fc.constant(undefined),
      query: parts.query ?? queryString(),
      body: parts.body ?? body(),
      headers: bodyHeaders,
    })
    .map(({ path: p, auth, query, body: b, headers }) => ({
      method,
      target: `${p}${query}`,
      headers: { ...headers, ...(auth === undefined ? {} : { authorization: auth }) },
      body: b,
    }));
}

export /** A path that does not vary. */
const fixed = (path: string) => fc.constant(path);

/** Signed (right secret, now), signed with another secret, signed long ago, garbage, or no signature at all. */
export function webhookRequest(events: fc.Arbitrary<string>): fc.Arbitrary<RawRequest> {
  const secret = inject('localStack').env.STRIPE_WEBHOOK_SECRET!;
  return fc
    .tuple(
      events,
      fc.constantFrom('signed', 'signed', 'signed', 'wrong-secret', 'stale', 'garbage', 'none'),
      fc.string({ maxLength: 80 }),
      bodyHeaders,
    )
    .map(([payload, how, garbage, headers]) => {
      const signature =
        how === 'signed'
          ? Stripe.webhooks.generateTestHeaderString({ payload, secret })
          : how === 'wrong-secret'
            ? Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_right_one' })
            : how === 'stale'
              ? Stripe.webhooks.generateTestHeaderString({
                  payload,
                  secret,
                  timestamp: Math.floor(Date.now() / 1000) - 3600,
                })
              : how === 'garbage'
                ? garbage.replace(/[\r\n]/g, '')
                : undefined;
      return {
        method: 'POST',
        target: '/api/webhooks/stripe',
        headers: {
          ...headers,
          'content-type': headers['content-type'] ?? 'application/json',
          ...(signature === undefined ? {} : { 'stripe-signature': signature }),
        },
        body: payload,
      };
    });
}

/**
 * Stripe-like events with fuzzed types and payloads. A session id is either one Stripe knows (`known`) or a value
 * that is not a Checkout Session id at all: a *signed* event naming a well-formed id Stripe does not know answers
 * 500 on purpose (so Stripe retries) — asserted on its own in adversarial-webhook.test.ts.
 */
export function stripeEvents(known: string): fc.Arbitrary<string> {
  const sessionId = fc.oneof(
    fc.constant(known),
    fc.string({ maxLength: 40 }).filter((id) => !isCheckoutSessionId(id)),
    fc.jsonValue(),
  );
  const session = fc.record(
    {
      id: sessionId,
      object: fc.constant('checkout.session'),
      payment_status: fc.oneof(fc.constantFrom('paid', 'unpaid', 'no_payment_required'), fc.jsonValue()),
      client_reference_id: fc.string(),
      metadata: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  const event = fc.record(
    {
      id: fc.string(),
      object: fc.constant('event'),
      type: fc.oneof(
        fc.constantFrom(
          'checkout.session.completed',
          'checkout.session.async_payment_succeeded',
          'checkout.session.async_payment_failed',
          'checkout.session.expired',
          'charge.succeeded',
        ),
        fc.string({ maxLength: 40 }),
        fc.jsonValue(),
      ),
      data: fc.oneof(
        { weight: 4, arbitrary: fc.record({ object: session }) },
        { weight: 1, arbitrary: fc.record({ object: fc.jsonValue() }, { requiredKeys: [] }) },
        { weight: 1, arbitrary: fc.jsonValue() },
      ),
      created: fc.integer(),
    },
    { requiredKeys: ['type'] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: event.map((e) => JSON.stringify(e)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}
