import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { documentClient } from '../../functions/adapters/aws';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { resetStripeClientForTests, stripeClientSettings } from '../../functions/adapters/stripe';
import { loadConfig, resetConfigForTests } from '../../functions/config';
import { buildCheckoutSessionParams } from '../../functions/domain/checkout';
import { findPack } from '../../functions/domain/packs';
import { routes } from '../../functions/http/routes';
import { logger } from '../../functions/common/logger';
import {
  checkoutEvent,
  newWebhookSecret,
  startCheckoutProvider,
  type CheckoutProvider,
} from '../../infrastructure/local/stand-ins/stripe/server';
import { functionNameOf } from '../../functions/catalogue';
import { createLambdaRuntime } from '../../infrastructure/local/functions';
import { startGateway, type RunningGateway } from '../../infrastructure/local/stand-ins/api-gateway/server';
import { createCognitoJwtAuthorizer } from '../../infrastructure/local/stand-ins/api-gateway/jwt-authorizer';
import { createPartLog } from '../../infrastructure/local/support/log';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * Payments against the real emulators and the real `stripe` SDK, with a Checkout provider and gateway of this test
 * file's own (so each test decides when, how often and how a webhook is delivered). The handlers run in this
 * process on the stack's DynamoDB Local and cognito-local. payments-flow.test.ts drives the stack's own wiring.
 */

const { runtimeConfig, env: stackEnv } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const quiet = createPartLog('checkout', { quiet: true });
const webhookSecret = newWebhookSecret();
const paymentRoutes = routes.filter(
  (r) => r.path.startsWith('/api/checkout/') || r.path === '/api/webhooks/stripe' || r.path === '/api/me',
);

let dataDir: string;
let provider: CheckoutProvider;
let gateway: RunningGateway;
let stripe: Stripe;

async function startProvider(port: number): Promise<CheckoutProvider> {
  // No webhook URL: these tests deliver (and tamper with) every event themselves.
  return startCheckoutProvider({ port, dataDir, webhookSecret, log: quiet });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'payments-test-'));
  provider = await startProvider(0);
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: '',
    STRIPE_API_BASE: provider.url,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  });
  resetConfigForTests();
  resetStripeClientForTests();
  const authorizer = await createCognitoJwtAuthorizer({
    cognitoEndpoint: stackEnv.COGNITO_ENDPOINT!,
    userPoolId: runtimeConfig.userPoolId,
    clientId: runtimeConfig.userPoolClientId,
  });
  const name = functionNameOf;
  const runtime = createLambdaRuntime(
    paymentRoutes.map((r) => ({ name: name(r.handler), handler: r.handler, timeoutSeconds: 30 })),
  );
  gateway = await startGateway({
    port: 0,
    routes: paymentRoutes,
    authorizer,
    invoke: (route, event) => runtime.invoke(name(route.handler), event),
    log: createPartLog('api', { quiet: true }),
  });
  const settings = stripeClientSettings(loadConfig());
  stripe = new Stripe(settings.key, { ...settings.options, maxNetworkRetries: 0 });
});

afterAll(async () => {
  await gateway?.stop();
  await provider?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  vi.restoreAllMocks();
});

// --- helpers ---------------------------------------------------------------------------------------------------

const api = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${gateway.url}${path}`, {
    ...init,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });

async function createSession(
  user: TestUser,
  body: unknown = { packId: 'popular' },
  headers: Record<string, string> = {},
): Promise<{ id: string; url: string }> {
  const res = await api('/api/checkout/sessions', user.idToken, {
    method: 'POST',
    body: JSON.stringify(body),
    headers,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; url: string };
}

const verify = (user: TestUser, id: string) => api(`/api/checkout/sessions/${id}`, user.idToken);

/** POSTs `payload` to the webhook with a `Stripe-Signature` built like Stripe's (SDK `generateTestHeaderString`). */
function deliver(
  payload: string,
  options: {
    secret?: string;
    timestamp?: number;
    body?: string;
    contentType?: string;
    header?: string | null;
  } = {},
) {
  const header =
    options.header !== undefined
      ? options.header
      : Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? webhookSecret,
          ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        });
  return fetch(`${gateway.url}/api/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json; charset=utf-8',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    body: options.body ?? payload,
  });
}

/** Pays a session on the provider without delivering the webhook, and returns the event Stripe would send. */
async function paidEvent(id: string): Promise<string> {
  const { event } = await provider.pay(id, { deliver: false });
  return JSON.stringify(event, null, 2);
}

async function purchasesOf(sub: string) {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': `USER#${sub}`, ':p': 'PURCHASE#' },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

const purchaseEntries = async (sub: string) => (await listLedger(sub)).filter((e) => e.reason === 'purchase');
const newUser = () => createTestUser(pool);

// --- creation --------------------------------------------------------------------------------------------------

describe('POST /api/checkout/sessions', () => {
  it('creates the session from the server pack: card, one USD line item, return URLs, owner, metadata', async () => {
    const user = await newUser();
    const { id, url } = await createSession(user);
    expect(id).toMatch(/^cs_test_/);
    expect(url).toBe(`http://localhost:${provider.port}/pay/${id}`);
    const session = await stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
    const origin = loadConfig().SITE_ORIGIN;
    expect(session).toMatchObject({
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      allowed_payment_method_types: ['card'],
      currency: 'usd',
      amount_total: 4500,
      success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}&redirect=dashboard`,
      cancel_url: `${origin}/pricing`,
      customer_email: user.email,
      client_reference_id: user.sub,
      allow_promotion_codes: true,
      metadata: {
        user_id: user.sub,
        pack_id: 'popular',
        credits: '60',
        amount: '4500',
        package_name: 'Popular Pack',
        user_email: user.email,
      },
    });
    expect(session.line_items?.data).toHaveLength(1);
    expect(session.line_items?.data[0]).toMatchObject({
      description: '60 AI Headshot Credits',
      quantity: 1,
      currency: 'usd',
      price: { unit_amount: 4500 },
    });
  });

  it('a client-sent price, credits or amount changes nothing', async () => {
    const user = await newUser();
    const { id } = await createSession(user, {
      packId: 'starter',
      price: 1,
      priceCents: 1,
      unit_amount: 1,
      amount: 1,
      credits: 10_000,
      metadata: { credits: '10000' },
    });
    const session = await stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
    expect(session.amount_total).toBe(3500);
    expect(session.line_items?.data[0]?.price?.unit_amount).toBe(3500);
    expect(session.metadata).toMatchObject({ pack_id: 'starter', credits: '40', amount: '3500' });
  });

  it('unknown packId, no body or a malformed Idempotency-Key → 400; no token → 401', async () => {
    const user = await newUser();
    const post = (body: string | undefined, headers: Record<string, string> = {}) =>
      api('/api/checkout/sessions', user.idToken, { method: 'POST', body, headers });
    for (const res of [
      await post(JSON.stringify({ packId: 'gold' })),
      await post(JSON.stringify({ packId: 'popular', price: 1 }).replace('popular', '')),
      await post(JSON.stringify({})),
      await post(undefined),
      await post('{not json'),
      await post(JSON.stringify({ packId: 'pro' }), { 'idempotency-key': 'bad key!' }),
    ]) {
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
      });
    }
    const anonymous = await api('/api/checkout/sessions', undefined, {
      method: 'POST',
      body: JSON.stringify({ packId: 'pro' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('the same Idempotency-Key returns the same session; it is scoped to the pack and the user', async () => {
    const [a, b] = await Promise.all([newUser(), newUser()]);
    const key = { 'idempotency-key': 'click-3f9a2c71' };
    const [first, second] = await Promise.all([
      createSession(a, { packId: 'pro' }, key),
      createSession(a, { packId: 'pro' }, key),
    ]);
    expect(second.id).toBe(first.id);
    expect((await createSession(a, { packId: 'starter' }, key)).id).not.toBe(first.id);
    expect((await createSession(b, { packId: 'pro' }, key)).id).not.toBe(first.id);
    expect((await createSession(a, { packId: 'pro' })).id).not.toBe(first.id);
  });

  it('answers 502 CHECKOUT_FAILED when the provider is down, and a restarted provider keeps its sessions', async () => {
    const user = await newUser();
    const before = await createSession(user);
    const port = provider.port;
    await provider.stop();
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const res = await api('/api/checkout/sessions', user.idToken, {
        method: 'POST',
        body: JSON.stringify({ packId: 'popular' }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        error: { code: 'CHECKOUT_FAILED', message: 'Failed to create checkout session' },
      });
      expect(errors).toHaveBeenCalledWith('Creating a Checkout Session failed', expect.anything());
      expect(JSON.stringify(errors.mock.calls)).not.toContain(webhookSecret);
    } finally {
      provider = await startProvider(port);
    }
    expect((await stripe.checkout.sessions.retrieve(before.id)).status).toBe('open');
  });
});

// --- webhook ---------------------------------------------------------------------------------------------------

describe('POST /api/webhooks/stripe', () => {
  it('a signed checkout.session.completed credits the pack once, with the purchase item in the same write', async () => {
    const user = await newUser(); // the Cognito post-confirmation trigger gave them 6 credits
    const { id } = await createSession(user);
    const payload = await paidEvent(id);

    const res = await deliver(payload);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'paid', creditsAdded: 60 });
    expect((await getUser(user.sub))?.credits).toBe(66);

    const again = await deliver(payload);
    expect(again.status).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);

    const session = provider.getSession(id)!;
    const purchases = await purchasesOf(user.sub);
    expect(purchases).toEqual([
      {
        PK: `USER#${user.sub}`,
        SK: `PURCHASE#${id}`,
        type: 'purchase',
        checkoutSessionId: id,
        packId: 'popular',
        credits: 60,
        amountTotal: 4500,
        currency: 'usd',
        paymentIntentId: session.payment_intent,
        status: 'completed',
        creditsReversed: 0,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(session.payment_intent).toMatch(/^pi_/);
    const ledger = await listLedger(user.sub);
    expect(ledger.map((e) => [e.reason, e.delta, e.ref]).sort()).toEqual(
      [
        ['purchase', 60, id],
        ['signup_bonus', 6, user.sub],
      ].sort(),
    );
    await expectLedgerBalanced(user.sub);
  });

  it('the same event 20 times plus 5 concurrent success-page verifications: one purchase, one entry, +60 once', async () => {
    const user = await newUser();
    const { id } = await createSession(user);
    const payload = await paidEvent(id);

    const [hooks, checks] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => deliver(payload))),
      Promise.all(Array.from({ length: 5 }, () => verify(user, id))),
    ]);
    expect(hooks.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(checks.map((r) => r.status)).toEqual(Array(5).fill(200));
    for (const body of await Promise.all(checks.map((r) => r.json()))) {
      expect(body).toEqual({ status: 'paid', creditsAdded: 60, credits: 66 });
    }
    expect(await purchasesOf(user.sub)).toHaveLength(1);
    expect(await purchaseEntries(user.sub)).toHaveLength(1);
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
    // The fulfilment that applied the grant, and only it, records the purchase for the funnel report.
    const analytics = join(process.env.ANALYTICS_DIR!, `${new Date().toISOString().slice(0, 10)}.jsonl`);
    const purchases = readFileSync(analytics, 'utf8')
      .split('\n')
      .filter((line) => line.includes(user.sub))
      .map((line) => JSON.parse(line) as { event_name: string; source: string; props: object });
    expect(purchases).toEqual([
      expect.objectContaining({
        event_name: 'purchase_completed',
        source: 'server',
        props: { packId: 'popular', credits: '60' },
      }),
    ]);
  });

  it('tampered body, wrong secret, stale timestamp, missing or malformed signature → 400 and no credit', async () => {
    const user = await newUser();
    const { id } = await createSession(user);
    const payload = await paidEvent(id);
    const now = Math.floor(Date.now() / 1000);
    const attempts = [
      deliver(payload, { body: payload.replace('"amount_total": 4500', '"amount_total": 1') }),
      deliver(payload, { body: payload.replace('"livemode": false', '"livemode": true') }),
      deliver(payload, { secret: newWebhookSecret() }),
      deliver(payload, { timestamp: now - 301 }),
      deliver(payload, { timestamp: now - 3600 }),
      deliver(payload, { header: null }),
      deliver(payload, { header: 't=abc,v1=def' }),
      deliver(payload, { header: `t=${now},v0=${'0'.repeat(64)}` }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'INVALID_SIGNATURE', message: expect.any(String) } });
    }
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);

    // The untampered event within the tolerance is accepted: the rejections above were about the signature alone.
    const ok = await deliver(payload, { timestamp: now - 250 });
    expect(ok.status).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
  });

  it('creates the buyer first when the webhook arrives before their user item exists', async () => {
    const sub = randomUUID();
    const email = `early-${sub.slice(0, 8)}@example.com`;
    const params = buildCheckoutSessionParams({
      pack: findPack('starter')!,
      sub,
      email,
      siteOrigin: loadConfig().SITE_ORIGIN,
    });
    const session = await stripe.checkout.sessions.create(params);
    expect(await getUser(sub)).toBeUndefined();
    const res = await deliver(await paidEvent(session.id));
    expect(await res.json()).toEqual({ received: true, status: 'paid', creditsAdded: 40 });
    expect(await getUser(sub)).toMatchObject({ email, credits: 46 });
    expect((await listLedger(sub)).map((e) => e.reason).sort()).toEqual(['purchase', 'signup_bonus']);
    await expectLedgerBalanced(sub);
  });

  it('verifies a base64-encoded body (isBase64Encoded) on its exact bytes', async () => {
    const user = await newUser();
    const { id } = await createSession(user);
    const event = JSON.parse(await paidEvent(id)) as Record<string, unknown>;
    // Non-ASCII text: decoding to a string and re-encoding would be fine here, but bytes must be what is verified.
    const payload = JSON.stringify({ ...event, note: 'Café ☕ — ünïcödé' }, null, 2);
    const res = await deliver(payload, { contentType: 'application/octet-stream' });
    expect(res.status).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
  });

  it('checkout.session.async_payment_succeeded fulfils; other event types are acknowledged and ignored', async () => {
    const user = await newUser();
    const { id } = await createSession(user);
    await provider.pay(id, { deliver: false });
    const ignored = await deliver(
      JSON.stringify({
        ...checkoutEvent('checkout.session.expired', provider.getSession(id)!),
        type: 'charge.succeeded',
      }),
    );
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: true });
    expect((await getUser(user.sub))?.credits).toBe(6);

    const async = await deliver(
      JSON.stringify(checkoutEvent('checkout.session.async_payment_succeeded', provider.getSession(id)!)),
    );
    expect(await async.json()).toEqual({ received: true, status: 'paid', creditsAdded: 60 });
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
  });

  it('an unpaid checkout.session.completed (payment still pending) credits nothing', async () => {
    const user = await newUser();
    const { id } = await createSession(user);
    const pending = { ...provider.getSession(id)!, status: 'complete', payment_status: 'unpaid' };
    const res = await deliver(JSON.stringify(checkoutEvent('checkout.session.completed', pending)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'unpaid' });
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);
  });

  it('a paid session that does not match the pack it names is not credited, and is logged', async () => {
    const user = await newUser();
    const params = buildCheckoutSessionParams({
      pack: findPack('popular')!,
      sub: user.sub,
      email: user.email,
      siteOrigin: loadConfig().SITE_ORIGIN,
    });
    params.line_items[0].price_data.unit_amount = 100; // $1 for the Popular Pack: made outside our API
    const session = await stripe.checkout.sessions.create(params);
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const res = await deliver(await paidEvent(session.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'invalid', creditsAdded: 0 });
    expect(errors).toHaveBeenCalledWith(
      'Checkout Session not credited: it does not match the purchase recorded for it',
      expect.objectContaining({ checkoutSessionId: session.id }),
    );
    expect(await (await verify(user, session.id)).json()).toEqual({
      status: 'invalid',
      creditsAdded: 0,
      credits: 6,
    });
    expect(await purchasesOf(user.sub)).toEqual([]);
    await expectLedgerBalanced(user.sub);
  });
});

// --- verification ----------------------------------------------------------------------------------------------

describe('GET /api/checkout/sessions/{id}', () => {
  it('fulfils a paid session even if the webhook never arrives, exactly once', async () => {
    const user = await newUser();
    const { id } = await createSession(user, { packId: 'pro' });
    await provider.pay(id, { deliver: false });
    expect(await (await verify(user, id)).json()).toEqual({
      status: 'paid',
      creditsAdded: 100,
      credits: 106,
    });
    expect(await (await verify(user, id)).json()).toEqual({
      status: 'paid',
      creditsAdded: 100,
      credits: 106,
    });
    expect(await purchaseEntries(user.sub)).toHaveLength(1);
    await expectLedgerBalanced(user.sub);
  });

  it('a declined session: no credit and status unpaid; an expired one: status expired', async () => {
    const user = await newUser();
    const declined = await createSession(user);
    provider.decline(declined.id);
    const res = await verify(user, declined.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'unpaid', creditsAdded: 0, credits: 6 });

    const expired = await createSession(user, { packId: 'starter' });
    await stripe.checkout.sessions.expire(expired.id);
    expect(await (await verify(user, expired.id)).json()).toEqual({
      status: 'expired',
      creditsAdded: 0,
      credits: 6,
    });
    expect(await purchasesOf(user.sub)).toEqual([]);
    await expectLedgerBalanced(user.sub);
  });

  it("another user's session → 404 (and is not fulfilled); an unknown id → 404; a malformed id → 400", async () => {
    const [owner, other] = await Promise.all([newUser(), newUser()]);
    const { id } = await createSession(owner);
    await provider.pay(id, { deliver: false });

    const stolen = await verify(other, id);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Checkout session not found.' },
    });
    expect((await getUser(owner.sub))?.credits).toBe(6);
    expect((await getUser(other.sub))?.credits).toBe(6);

    const unknown = await verify(other, 'cs_test_doesNotExist123');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Checkout session not found.' },
    });

    for (const bad of ['pi_123', 'cs_test_x%2F..%2Fpayment_intents', 'cs_', 'cs_test_a-b']) {
      const res = await verify(other, bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.code).toBe('VALIDATION_ERROR');
    }
    expect((await api(`/api/checkout/sessions/${id}`)).status).toBe(401);
  });
});
