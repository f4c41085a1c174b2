import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { documentClient } from '../../functions/adapters/aws';
import { PROFILE_SK, userPk } from '../../functions/adapters/keys';
import { getPurchase } from '../../functions/adapters/checkout';
import { getUser, listLedger, spendCredits } from '../../functions/adapters/ledger';
import { findPaymentIntent, getPendingPurchase } from '../../functions/adapters/purchases';
import { loadConfig, resetConfigForTests } from '../../functions/config';
import { resetStripeClientForTests, stripeClientSettings } from '../../functions/adapters/stripe';
import { findPack } from '../../functions/domain/packs';
import { routes } from '../../functions/http/routes';
import {
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
 * Money paths that must never strand a buyer or leave credits behind, end to end: the real handlers behind a gateway
 * of this file's own, the real `stripe` SDK, and the local Checkout provider posting signed webhooks to it — with a
 * price changed after a session was created, a 100 % promotion code, refunds and disputes (replayed, out of order,
 * before fulfilment, larger than the balance).
 */

const { runtimeConfig, env: stackEnv } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const webhookSecret = newWebhookSecret();
const moneyRoutes = routes.filter(
  (r) => r.path.startsWith('/api/checkout/') || r.path === '/api/webhooks/stripe' || r.path === '/api/me',
);

let provider: CheckoutProvider;
let gateway: RunningGateway;
let stripe: Stripe;

beforeAll(async () => {
  const authorizer = await createCognitoJwtAuthorizer({
    cognitoEndpoint: stackEnv.COGNITO_ENDPOINT!,
    userPoolId: runtimeConfig.userPoolId,
    clientId: runtimeConfig.userPoolClientId,
  });
  const name = functionNameOf;
  const runtime = createLambdaRuntime(
    moneyRoutes.map((r) => ({ name: name(r.handler), handler: r.handler, timeoutSeconds: 30 })),
  );
  gateway = await startGateway({
    port: 0,
    routes: moneyRoutes,
    authorizer,
    invoke: (route, event) => runtime.invoke(name(route.handler), event),
    log: createPartLog('api', { quiet: true }),
  });
  provider = await startCheckoutProvider({
    port: 0,
    webhookUrl: `${gateway.url}/api/webhooks/stripe`,
    webhookSecret,
    log: createPartLog('checkout', { quiet: true }),
  });
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: '',
    STRIPE_API_BASE: provider.url,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  });
  resetConfigForTests();
  resetStripeClientForTests();
  const settings = stripeClientSettings(loadConfig());
  stripe = new Stripe(settings.key, { ...settings.options, maxNetworkRetries: 0 });
});

afterAll(async () => {
  await gateway?.stop();
  await provider?.stop();
});

const api = (path: string, token: string, body?: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function buyer(): Promise<TestUser> {
  const user = await createTestUser(pool);
  expect((await api('/api/me', user.idToken)).status).toBe(200);
  return user;
}

async function createSession(user: TestUser, packId: string): Promise<string> {
  const res = await api('/api/checkout/sessions', user.idToken, { packId });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function paidPurchase(user: TestUser, packId = 'popular') {
  const id = await createSession(user, packId);
  await provider.pay(id);
  const purchase = await getPurchase(user.sub, id);
  expect(purchase?.paymentIntentId).toMatch(/^pi_/);
  return { id, paymentIntentId: purchase!.paymentIntentId! };
}

const reversals = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'reversal').map((e) => e.delta);

describe('purchases that never strand a buyer', () => {
  it('credits a session at the price recorded when it was created, even after the pack price changed', async () => {
    const user = await buyer();
    const id = await createSession(user, 'popular');
    expect(await getPendingPurchase(user.sub, id)).toEqual({
      packId: 'popular',
      credits: 60,
      priceCents: 4500,
      currency: 'usd',
    });
    const pack = findPack('popular') as { priceCents: number };
    pack.priceCents = 4900; // a deploy raised the price while the buyer was on the payment page
    try {
      const { event } = await provider.pay(id);
      expect(event).toBeDefined();
    } finally {
      pack.priceCents = 4500;
    }
    expect((await getUser(user.sub))?.credits).toBe(66);
    expect(await getPurchase(user.sub, id)).toMatchObject({ amountTotal: 4500, credits: 60 });
    await expectLedgerBalanced(user.sub);
  });

  it('credits a session made free by a 100 % promotion code (no_payment_required, total 0)', async () => {
    const user = await buyer();
    const id = await createSession(user, 'starter');
    const { session } = await provider.pay(id, { promotionCode: 'FREE100' });
    expect(session).toMatchObject({
      payment_status: 'no_payment_required',
      amount_total: 0,
      payment_intent: null,
    });
    const verified = await (await api(`/api/checkout/sessions/${id}`, user.idToken)).json();
    expect(verified).toMatchObject({ status: 'paid', creditsAdded: 40 });
    expect((await getUser(user.sub))?.credits).toBe(46);
    expect(await getPurchase(user.sub, id)).toMatchObject({ amountTotal: 0, paymentIntentId: undefined });
    await expectLedgerBalanced(user.sub);
  });
});

describe('refunds and disputes take the credits back, exactly once', () => {
  it('each refund event writes exactly one reversal, however often it is delivered', async () => {
    const user = await buyer();
    const { id, paymentIntentId } = await paidPurchase(user);
    expect(await findPaymentIntent(paymentIntentId)).toEqual({ sub: user.sub, checkoutSessionId: id });
    // A partial refund of a third; its event delivered twice at once, then again.
    const partial = await provider.refund(id, { amount: 1500, deliver: false });
    expect(await Promise.all([provider.deliver(partial.event), provider.deliver(partial.event)])).toEqual([
      200, 200,
    ]);
    expect(await provider.deliver(partial.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-20]);
    // The rest refunded through Stripe's API (the real SDK): the provider posts charge.refunded by itself.
    const refund = await stripe.refunds.create({ payment_intent: paymentIntentId });
    expect(refund).toMatchObject({ object: 'refund', amount: 3000, status: 'succeeded' });
    expect(await provider.deliver(partial.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-40, -20]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'refunded', creditsReversed: 60 });
    await expectLedgerBalanced(user.sub);
  });

  it('a full refund delivered before the older partial one: one reversal of everything, the late one is a no-op', async () => {
    const user = await buyer();
    const { id } = await paidPurchase(user);
    const partial = await provider.refund(id, { amount: 1500, deliver: false });
    const rest = await provider.refund(id, { deliver: false });
    expect(await provider.deliver(rest.event)).toBe(200);
    expect(await provider.deliver(partial.event)).toBe(200);
    expect(await provider.deliver(rest.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-60]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    await expectLedgerBalanced(user.sub);
  });

  it('a refund that arrives before fulfilment is refused until the purchase exists, then applied once', async () => {
    const user = await buyer();
    const id = await createSession(user, 'starter');
    await provider.pay(id, { deliver: false });
    const refund = await provider.refund(id, { deliver: false });
    expect(await provider.deliver(refund.event)).toBe(409); // Stripe delivers it again later
    expect(await reversals(user.sub)).toEqual([]);
    expect((await (await api(`/api/checkout/sessions/${id}`, user.idToken)).json()).status).toBe('paid');
    expect(await provider.deliver(refund.event)).toBe(200);
    expect(await provider.deliver(refund.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-40]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    await expectLedgerBalanced(user.sub);
  });

  it('a dispute after the credits were spent takes what is left, never below 0, and flags the account', async () => {
    const user = await buyer();
    const { id } = await paidPurchase(user);
    await spendCredits({ sub: user.sub, amount: 54, ref: `spent-${id}` });
    const dispute = await provider.dispute(id, { deliver: false });
    const delivered = await Promise.all([provider.deliver(dispute.event), provider.deliver(dispute.event)]);
    expect(delivered).toEqual([200, 200]);
    expect(await provider.deliver(dispute.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-12]);
    const { Item: profile } = await documentClient().send(
      new GetCommand({ TableName: stackEnv.TABLE_NAME, Key: { PK: userPk(user.sub), SK: PROFILE_SK } }),
    );
    expect(profile).toMatchObject({ credits: 0, flagReason: 'reversal-exceeds-balance', creditsOwed: 48 });
    expect(profile?.flaggedAt).toEqual(expect.any(String));
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'disputed', creditsReversed: 60 });
    await expectLedgerBalanced(user.sub);
  });
});
