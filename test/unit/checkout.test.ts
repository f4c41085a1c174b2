import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeStripeError,
  LOCAL_STRIPE_API_KEY,
  STRIPE_API_VERSION,
  StripeNotConfiguredError,
  stripeClientSettings,
} from '../../functions/adapters/stripe';
import { resetConfigForTests } from '../../functions/config';
import {
  assessCheckoutSession,
  buildCheckoutSessionParams,
  checkoutIdempotencyKey,
  CLIENT_IDEMPOTENCY_KEY_PATTERN,
  isCheckoutSessionId,
  type CheckoutSessionLike,
} from '../../functions/domain/checkout';
import { CREDIT_PACKS, findPack } from '../../functions/domain/packs';
import {
  escapeHtml,
  formatMoney,
  renderCheckoutPage,
} from '../../infrastructure/local/stand-ins/stripe/hosted-page';
import { startLocalPayments } from '../../infrastructure/local/stand-ins/stripe/local-payments';
import {
  parseStripeForm,
  StripeStyleError,
  validateCreateParams,
} from '../../infrastructure/local/stand-ins/stripe/wire';
import { createPartLog } from '../../infrastructure/local/support/log';

const popular = findPack('popular')!;
const SUB = '8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d';

describe('buildCheckoutSessionParams', () => {
  it.each(CREDIT_PACKS.map((p) => [p.id, p] as const))(
    '%s: price and credits come from the pack',
    (_, pack) => {
      const params = buildCheckoutSessionParams({
        pack,
        sub: SUB,
        email: 'ada@example.com',
        siteOrigin: 'https://headshot.studio/',
      });
      expect(params).toEqual({
        mode: 'payment',
        allowed_payment_method_types: ['card'],
        line_items: [
          {
            price_data: {
              currency: 'usd',
              unit_amount: pack.priceCents,
              product_data: { name: `${pack.credits} AI Headshot Credits`, description: expect.any(String) },
            },
            quantity: 1,
          },
        ],
        success_url: 'https://headshot.studio/success?session_id={CHECKOUT_SESSION_ID}&redirect=dashboard',
        cancel_url: 'https://headshot.studio/pricing',
        customer_email: 'ada@example.com',
        client_reference_id: SUB,
        metadata: {
          user_id: SUB,
          pack_id: pack.id,
          credits: String(pack.credits),
          amount: String(pack.priceCents),
          package_name: pack.name,
          user_email: 'ada@example.com',
        },
        allow_promotion_codes: true,
      });
    },
  );

  it('leaves the e-mail out when it is unknown (Checkout then asks for it)', () => {
    const params = buildCheckoutSessionParams({
      pack: popular,
      sub: SUB,
      email: undefined,
      siteOrigin: 'http://x.test',
    });
    expect(params).not.toHaveProperty('customer_email');
    expect(params.metadata).not.toHaveProperty('user_email');
  });
});

describe('assessCheckoutSession (Stripe "Fulfill orders": only paid, and only what we sell)', () => {
  const paid = (over: Partial<CheckoutSessionLike> = {}): CheckoutSessionLike => ({
    id: 'cs_test_1',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 4500,
    amount_subtotal: 4500,
    currency: 'usd',
    client_reference_id: SUB,
    customer_email: 'ada@example.com',
    customer_details: { email: 'ada@example.com' },
    metadata: { user_id: SUB, pack_id: 'popular', credits: '60', amount: '4500' },
    payment_intent: 'pi_1',
    line_items: { data: [{ quantity: 1 }] },
    ...over,
  });

  it('fulfils a paid session for a known pack', () => {
    expect(assessCheckoutSession(paid())).toEqual({
      kind: 'fulfil',
      sub: SUB,
      email: 'ada@example.com',
      packId: 'popular',
      credits: 60,
      amountTotal: 4500,
      currency: 'usd',
      paymentIntentId: 'pi_1',
    });
    expect(assessCheckoutSession(paid({ payment_intent: { id: 'pi_2' } }))).toMatchObject({
      paymentIntentId: 'pi_2',
    });
  });

  it('accepts a promotion code (amount_total below the price), never more than the price', () => {
    expect(assessCheckoutSession(paid({ amount_total: 3600 }))).toMatchObject({
      kind: 'fulfil',
      amountTotal: 3600,
    });
    expect(assessCheckoutSession(paid({ amount_total: 4501 }))).toMatchObject({ kind: 'invalid' });
  });

  it.each([
    ['open, unpaid', { status: 'open', payment_status: 'unpaid' }, 'unpaid'],
    ['complete, async payment pending', { status: 'complete', payment_status: 'unpaid' }, 'unpaid'],
    ['expired', { status: 'expired', payment_status: 'unpaid' }, 'expired'],
    ['no payment required, still open', { status: 'open', payment_status: 'no_payment_required' }, 'unpaid'],
  ] as const)('%s → not paid (%s)', (_, over, status) => {
    expect(assessCheckoutSession(paid(over))).toEqual({ kind: 'not-paid', status, sub: SUB });
  });

  it('credits a 100 % promotion code (no_payment_required, total 0), never a free session with a total', () => {
    const free = paid({ payment_status: 'no_payment_required', amount_total: 0, payment_intent: null });
    expect(assessCheckoutSession(free)).toMatchObject({
      kind: 'fulfil',
      amountTotal: 0,
      paymentIntentId: undefined,
    });
    expect(
      assessCheckoutSession(paid({ payment_status: 'no_payment_required', amount_total: 100 })),
    ).toMatchObject({ kind: 'invalid' });
  });

  it("checks against the purchase recorded at creation, not today's price list", () => {
    const recorded = { packId: 'popular', credits: 60, priceCents: 4000, currency: 'usd' };
    const session = paid({
      amount_subtotal: 4000,
      amount_total: 4000,
      metadata: { user_id: SUB, pack_id: 'popular' },
    });
    expect(assessCheckoutSession(session)).toMatchObject({ kind: 'invalid' });
    expect(assessCheckoutSession(session, recorded)).toMatchObject({ kind: 'fulfil', credits: 60 });
    expect(assessCheckoutSession(paid(), recorded)).toMatchObject({ kind: 'invalid' });
    expect(assessCheckoutSession(session, { ...recorded, packId: 'pro' })).toMatchObject({ kind: 'invalid' });
  });

  it.each([
    ['unknown pack', { metadata: { user_id: SUB, pack_id: 'gold' } }],
    ['no pack', { metadata: { user_id: SUB } }],
    ['wrong currency', { currency: 'eur' }],
    ['wrong subtotal', { amount_subtotal: 100, amount_total: 100 }],
    ['credits metadata disagrees', { metadata: { user_id: SUB, pack_id: 'popular', credits: '600' } }],
    ['two of the item', { line_items: { data: [{ quantity: 2 }] } }],
    ['two items', { line_items: { data: [{ quantity: 1 }, { quantity: 1 }] } }],
    ['owner mismatch', { client_reference_id: 'someone-else' }],
    ['no owner', { client_reference_id: null, metadata: { pack_id: 'popular' } }],
  ] as const)('a paid session with %s is invalid (never credited)', (_, over) => {
    expect(assessCheckoutSession(paid(over as Partial<CheckoutSessionLike>))).toMatchObject({
      kind: 'invalid',
    });
  });
});

describe('ids and idempotency keys', () => {
  it('accepts only Checkout Session ids', () => {
    expect(isCheckoutSessionId('cs_test_a1B2c3')).toBe(true);
    expect(isCheckoutSessionId('cs_live_a1B2c3')).toBe(true);
    for (const bad of [
      undefined,
      '',
      'cs_',
      'pi_123',
      'cs_test_x/../y',
      'cs_test_a-b',
      `cs_${'a'.repeat(251)}`,
    ]) {
      expect(isCheckoutSessionId(bad)).toBe(false);
    }
  });

  it('scopes the idempotency key to the user and the pack', () => {
    expect(checkoutIdempotencyKey('u1', 'pro', 'k')).not.toBe(checkoutIdempotencyKey('u2', 'pro', 'k'));
    expect(checkoutIdempotencyKey('u1', 'pro', 'k')).not.toBe(checkoutIdempotencyKey('u1', 'starter', 'k'));
    expect(checkoutIdempotencyKey('u1', 'pro', 'x'.repeat(400)).length).toBeLessThanOrEqual(255);
    expect(CLIENT_IDEMPOTENCY_KEY_PATTERN.test('click-3f9a2c71')).toBe(true);
    expect(CLIENT_IDEMPOTENCY_KEY_PATTERN.test('short')).toBe(false);
  });
});

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

describe('local stack wiring', () => {
  it('with a real STRIPE_SECRET_KEY the local provider is not started and the environment is left alone', async () => {
    const configuredEnv = {
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_stripe_listen',
    };
    const payments = await startLocalPayments({
      configuredEnv,
      port: 1, // never bound
      dataDir: '/nonexistent',
      gatewayUrl: 'http://127.0.0.1:1',
      log: createPartLog('checkout', { quiet: true }),
    });
    expect(payments).toBeUndefined();
    expect(configuredEnv).toEqual({
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_stripe_listen',
    });
  });
});

describe('local provider: form parsing and validation', () => {
  it('parses exactly what the SDK sends (captured without a network)', async () => {
    let captured = '';
    const fetchFn = async (_url: string | URL | Request, init?: RequestInit) => {
      captured = String(init?.body ?? '');
      return new Response(
        JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'http://x/pay' }),
        {
          status: 200,
          headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
        },
      );
    };
    const stripe = new Stripe(LOCAL_STRIPE_API_KEY, {
      httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
      maxNetworkRetries: 0,
    });
    const params = buildCheckoutSessionParams({
      pack: popular,
      sub: SUB,
      email: 'ada+test@example.com',
      siteOrigin: 'http://localhost:5173',
    });
    await stripe.checkout.sessions.create(params);
    expect(captured).toContain('line_items[0][price_data][product_data][name]=60%20AI%20Headshot%20Credits');
    const parsed = validateCreateParams(parseStripeForm(captured));
    expect(parsed).toEqual({
      ...params,
      line_items: [{ ...params.line_items[0], quantity: 1 }],
    });
  });

  it('builds arrays from a[0] and a[], and drops keys that could pollute prototypes', () => {
    const parsed = parseStripeForm(
      'expand[]=line_items&expand[]=payment_intent&a[__proto__][x]=1&constructor=2&m[k]=v',
    );
    expect(parsed).toEqual({ expand: ['line_items', 'payment_intent'], m: { k: 'v' } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers like Stripe: missing and unknown parameters name the param', () => {
    const expectError = (raw: Record<string, unknown>, message: string, param: string) => {
      let error: unknown;
      try {
        validateCreateParams(raw);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StripeStyleError);
      expect((error as StripeStyleError).toJSON()).toEqual({
        error: { type: 'invalid_request_error', message, param },
      });
    };
    const base = parseStripeForm(
      'mode=payment&success_url=http%3A%2F%2Fx.test%2Fok&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=N',
    );
    expect(validateCreateParams(base).line_items[0]?.price_data.unit_amount).toBe(100);
    expectError({ ...base, line_items: undefined }, 'Missing required param: line_items.', 'line_items');
    expectError(
      { ...base, payment_method_types: ['card'] },
      'Received unknown parameter: payment_method_types',
      'payment_method_types',
    );
    const noCurrency = structuredClone(base) as { line_items: { price_data: Record<string, unknown> }[] };
    delete noCurrency.line_items[0]!.price_data.currency;
    expectError(
      noCurrency,
      'Missing required param: line_items[0][price_data][currency].',
      'line_items[0][price_data][currency]',
    );
  });
});

describe('local provider: hosted page', () => {
  const view = {
    sessionId: 'cs_test_1',
    merchantName: 'Headshot Studio',
    state: 'open' as const,
    currency: 'usd',
    amountTotal: 4500,
    customerEmail: '<b>ada</b>@example.com',
    lineItems: [{ name: '<script>alert(1)</script>', description: 'A & B', quantity: 1, amountTotal: 4500 }],
    expiresAt: 1_800_000_000,
    declined: false,
    actions: {
      pay: '/pay/cs_test_1/pay',
      decline: '/pay/cs_test_1/decline',
      cancel: '/pay/cs_test_1/cancel',
    },
    returnUrl: null,
    apiVersion: STRIPE_API_VERSION,
  };

  it('says it is the local test checkout, shows the amount, and offers Pay, Decline and Cancel forms', () => {
    const html = renderCheckoutPage(view);
    expect(html).toContain('Local test checkout');
    expect(html).toContain('Pay $45.00');
    for (const action of Object.values(view.actions))
      expect(html).toContain(`<form method="post" action="${action}">`);
    expect(html).toContain('Decline payment');
    expect(html).toContain('Cancel and return to Headshot Studio');
    expect(html).not.toMatch(/<(script|link)\b|src=|https?:\/\/(?!stripe)/i); // self-contained: no external assets
  });

  it('escapes everything it did not write itself', () => {
    const html = renderCheckoutPage(view);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;ada&lt;/b&gt;@example.com');
    expect(escapeHtml(`"'&<>`)).toBe('&quot;&#39;&amp;&lt;&gt;');
  });

  it('formats minor units per currency', () => {
    expect(formatMoney(4500, 'usd')).toBe('$45.00');
    expect(formatMoney(500, 'jpy')).toBe('¥500');
  });
});

describe('POST /api/webhooks/stripe before any I/O', () => {
  const secret = 'whsec_unit_test_secret_0123456789';
  const saved = { ...process.env };
  let handler: (event: APIGatewayProxyEventV2) => Promise<{ statusCode?: number; body?: string }>;
  const sample = JSON.parse(
    readFileSync(new URL('../events/webhooks/stripe.json', import.meta.url), 'utf8'),
  ) as APIGatewayProxyEventV2 & { body: string };

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
    JSON.parse(
      readFileSync(new URL(`../events/${name}.json`, import.meta.url), 'utf8'),
    ) as APIGatewayProxyEventV2 & {
      requestContext: { authorizer?: { jwt: { claims: Record<string, string> } } };
    };

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
