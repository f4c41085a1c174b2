import Stripe from 'stripe';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeStripeError,
  LOCAL_STRIPE_API_KEY,
  STRIPE_API_VERSION,
  StripeNotConfiguredError,
  stripeClientSettings,
} from '../../functions/adapters/stripe/client';
import { resetConfigForTests } from '../../functions/config/settings';
import { assessCheckoutSession, isCheckoutSessionId } from '../../functions/domain/checkout';
import { loadEvent } from '../helpers/events';

/*
 * The Stripe side of the API before any I/O: the SDK's settings (Stripe itself or the local stand-in), the webhook's
 * signature checks, and the sample events of test/events.
 */

describe('Stripe client settings', () => {
  it('uses Stripe itself with a real key, pinned to the SDK API version', () => {
    const { key, options, local } = stripeClientSettings({
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_API_BASE: 'http://127.0.0.1:4242',
    });
    expect(key).toBe('sk_test_51Abc');
    expect(local).toBe(false);
    expect(options.host).toBeUndefined(); // a real key never goes to a configurable host
    expect(options.apiVersion).toBe(STRIPE_API_VERSION);
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('points the SDK at the local provider with a placeholder key that is not a secret', () => {
    const { key, options, local } = stripeClientSettings({ STRIPE_API_BASE: 'http://127.0.0.1:4242' });
    expect(local).toBe(true);
    expect(key).toBe(LOCAL_STRIPE_API_KEY);
    expect(key).not.toMatch(/sk_(live|test)_[A-Za-z0-9]{10,}/);
    expect(options).toMatchObject({ host: '127.0.0.1', port: '4242', protocol: 'http' });
  });

  it('refuses to guess when neither a key nor a local provider is configured', () => {
    expect(() => stripeClientSettings({})).toThrow(StripeNotConfiguredError);
  });

  it('describes Stripe errors for logs with keys redacted', () => {
    // Assembled at run time so no key-shaped literal sits in the tree (secret scanners flag those).
    const fakeKey = ['sk', 'test', '51Abcdefghijklmnop'].join('_');
    const error = new Stripe.errors.StripeAuthenticationError({
      type: 'invalid_request_error',
      message: `Invalid API Key provided: ${fakeKey}`,
    });
    const described = describeStripeError(error);
    expect(JSON.stringify(described)).not.toContain(fakeKey);
    expect(described.message).toContain('sk_[redacted]');
  });
});

describe('POST /api/webhooks/stripe before any I/O', () => {
  const secret = 'whsec_unit_test_secret_0123456789';
  const saved = { ...process.env };
  let handler: (event: APIGatewayProxyEventV2) => Promise<{ statusCode?: number; body?: string }>;
  const sample = loadEvent<APIGatewayProxyEventV2 & { body: string }>('webhooks/stripe');

  beforeAll(async () => {
    Object.assign(process.env, {
      TABLE_NAME: 't',
      UPLOADS_BUCKET: 'u',
      RESULTS_BUCKET: 'r',
      STRIPE_WEBHOOK_SECRET: secret,
      STRIPE_API_BASE: 'http://127.0.0.1:9',
    });
    resetConfigForTests();
    handler = (await import('../../functions/webhooks/stripe')).handler as typeof handler;
  });
  afterAll(() => {
    process.env = saved;
    resetConfigForTests();
  });

  const signed = (body: string, options: { secret?: string; timestamp?: number; base64?: boolean } = {}) => ({
    ...sample,
    headers: {
      ...sample.headers,
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.secret ?? secret,
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
      }),
    },
    body: options.base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: options.base64 ?? false,
  });

  it('rejects the sample event as captured (its signature is from another secret and too old)', async () => {
    const res = await handler(sample);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body!)).toEqual({
      error: { code: 'INVALID_SIGNATURE', message: 'Invalid Stripe signature.' },
    });
  });

  it('400 for a missing header, a wrong secret, a stale timestamp or a tampered body', async () => {
    const body = sample.body;
    const cases = [
      { ...sample, headers: { ...sample.headers, 'stripe-signature': undefined } },
      signed(body, { secret: 'whsec_another' }),
      signed(body, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      { ...signed(body), body: body.replace('"amount_total": 4500', '"amount_total": 1') },
    ];
    for (const event of cases) {
      const res = await handler(event as APIGatewayProxyEventV2);
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body!).error.code).toBe('INVALID_SIGNATURE');
    }
  });

  it('acknowledges and ignores other event types (plain or base64 body)', async () => {
    const other = JSON.stringify({ ...JSON.parse(sample.body), type: 'customer.created' });
    for (const base64 of [false, true]) {
      const res = await handler(signed(other, { base64 }) as APIGatewayProxyEventV2);
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body!)).toEqual({ received: true, ignored: true });
    }
  });
});

describe('sample events (test/events, SAM convention)', () => {
  const load = (name: string) =>
    loadEvent<
      APIGatewayProxyEventV2 & {
        requestContext: { authorizer?: { jwt: { claims: Record<string, string> } } };
      }
    >(name);

  it('are API Gateway payload v2 events for the routes they name', () => {
    const create = load('http/create-checkout-session');
    expect(create.routeKey).toBe('POST /api/checkout/sessions');
    expect(JSON.parse(create.body!)).toEqual({ packId: 'popular' });
    expect(create.requestContext.authorizer?.jwt.claims.sub).toBeTruthy();
    const get = load('http/get-checkout-session');
    expect(isCheckoutSessionId(get.pathParameters?.id)).toBe(true);
    const hook = load('webhooks/stripe');
    const event = JSON.parse(hook.body!) as Stripe.Event;
    expect(event).toMatchObject({
      object: 'event',
      type: 'checkout.session.completed',
      api_version: STRIPE_API_VERSION,
    });
    expect(assessCheckoutSession(event.data.object as Stripe.Checkout.Session)).toMatchObject({
      kind: 'fulfil',
    });
    expect(hook.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });
});
