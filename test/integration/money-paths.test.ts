import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { PROFILE_SK, userPk } from '../../functions/adapters/support/keys';
import { getPurchase } from '../../functions/adapters/purchases';
import { getUser, listLedger, spendCredits } from '../../functions/adapters/ledger';
import { findPaymentIntent, getPendingPurchase } from '../../functions/adapters/purchases';
import { findPack } from '../../functions/domain/packs';
import { type TestUser } from '../helpers/cognito';
import { usePaymentsStack } from '../helpers/payments-stack';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * Money paths that must never strand a buyer or leave credits behind, end to end: the real handlers behind a gateway
 * of this file's own, the real `stripe` SDK, and the local Checkout provider posting signed webhooks to it — with a
 * price changed after a session was created, a 100 % promotion code, refunds and disputes (replayed, out of order,
 * before fulfilment, larger than the balance).
 */

// The provider posts its signed events to the gateway by itself, as Stripe does.
const payments = usePaymentsStack({ deliverWebhooks: true });

const createSession = async (user: TestUser, packId: string) =>
  (await payments.createSession(user, { packId })).id;

async function paidPurchase(user: TestUser, packId = 'popular') {
  const id = await createSession(user, packId);
  await payments.provider.pay(id);
  const purchase = await getPurchase(user.sub, id);
  expect(purchase?.paymentIntentId).toMatch(/^pi_/);
  return { id, paymentIntentId: purchase!.paymentIntentId! };
}

const reversals = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'reversal').map((e) => e.delta);

describe('purchases that never strand a buyer', () => {
  it('credits a session at the price recorded when it was created, even after the pack price changed', async () => {
    const user = await payments.buyer();
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
      const { event } = await payments.provider.pay(id);
      expect(event).toBeDefined();
    } finally {
      pack.priceCents = 4500;
    }
    expect((await getUser(user.sub))?.credits).toBe(66);
    expect(await getPurchase(user.sub, id)).toMatchObject({ amountTotal: 4500, credits: 60 });
    await expectLedgerBalanced(user.sub);
  });

  it('credits a session made free by a 100 % promotion code (no_payment_required, total 0)', async () => {
    const user = await payments.buyer();
    const id = await createSession(user, 'starter');
    const { session } = await payments.provider.pay(id, { promotionCode: 'FREE100' });
    expect(session).toMatchObject({
      payment_status: 'no_payment_required',
      amount_total: 0,
      payment_intent: null,
    });
    const verified = await (await payments.api(`/api/checkout/sessions/${id}`, user.idToken)).json();
    expect(verified).toMatchObject({ status: 'paid', creditsAdded: 40 });
    expect((await getUser(user.sub))?.credits).toBe(46);
    expect(await getPurchase(user.sub, id)).toMatchObject({ amountTotal: 0, paymentIntentId: undefined });
    await expectLedgerBalanced(user.sub);
  });
});

describe('refunds and disputes take the credits back, exactly once', () => {
  it('each refund event writes exactly one reversal, however often it is delivered', async () => {
    const user = await payments.buyer();
    const { id, paymentIntentId } = await paidPurchase(user);
    expect(await findPaymentIntent(paymentIntentId)).toEqual({ sub: user.sub, checkoutSessionId: id });
    // A partial refund of a third; its event delivered twice at once, then again.
    const partial = await payments.provider.refund(id, { amount: 1500, deliver: false });
    expect(
      await Promise.all([payments.provider.deliver(partial.event), payments.provider.deliver(partial.event)]),
    ).toEqual([200, 200]);
    expect(await payments.provider.deliver(partial.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-20]);
    // The rest refunded through Stripe's API (the real SDK): the provider posts charge.refunded by itself.
    const refund = await payments.stripe.refunds.create({ payment_intent: paymentIntentId });
    expect(refund).toMatchObject({ object: 'refund', amount: 3000, status: 'succeeded' });
    expect(await payments.provider.deliver(partial.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-40, -20]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'refunded', creditsReversed: 60 });
    await expectLedgerBalanced(user.sub);
  });

  it('a full refund delivered before the older partial one: one reversal of everything, the late one is a no-op', async () => {
    const user = await payments.buyer();
    const { id } = await paidPurchase(user);
    const partial = await payments.provider.refund(id, { amount: 1500, deliver: false });
    const rest = await payments.provider.refund(id, { deliver: false });
    expect(await payments.provider.deliver(rest.event)).toBe(200);
    expect(await payments.provider.deliver(partial.event)).toBe(200);
    expect(await payments.provider.deliver(rest.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-60]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    await expectLedgerBalanced(user.sub);
  });

  it('a refund that arrives before fulfilment is refused until the purchase exists, then applied once', async () => {
    const user = await payments.buyer();
    const id = await createSession(user, 'starter');
    await payments.provider.pay(id, { deliver: false });
    const refund = await payments.provider.refund(id, { deliver: false });
    expect(await payments.provider.deliver(refund.event)).toBe(409); // Stripe delivers it again later
    expect(await reversals(user.sub)).toEqual([]);
    expect((await (await payments.api(`/api/checkout/sessions/${id}`, user.idToken)).json()).status).toBe(
      'paid',
    );
    expect(await payments.provider.deliver(refund.event)).toBe(200);
    expect(await payments.provider.deliver(refund.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-40]);
    expect((await getUser(user.sub))?.credits).toBe(6);
    await expectLedgerBalanced(user.sub);
  });

  it('a dispute after the credits were spent takes what is left, never below 0, and flags the account', async () => {
    const user = await payments.buyer();
    const { id } = await paidPurchase(user);
    await spendCredits({ sub: user.sub, amount: 54, ref: `spent-${id}` });
    const dispute = await payments.provider.dispute(id, { deliver: false });
    const delivered = await Promise.all([
      payments.provider.deliver(dispute.event),
      payments.provider.deliver(dispute.event),
    ]);
    expect(delivered).toEqual([200, 200]);
    expect(await payments.provider.deliver(dispute.event)).toBe(200);
    expect(await reversals(user.sub)).toEqual([-12]);
    const { Item: profile } = await documentClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: userPk(user.sub), SK: PROFILE_SK } }),
    );
    expect(profile).toMatchObject({ credits: 0, flagReason: 'reversal-exceeds-balance', creditsOwed: 48 });
    expect(profile?.flaggedAt).toEqual(expect.any(String));
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'disputed', creditsReversed: 60 });
    await expectLedgerBalanced(user.sub);
  });
});

const entries = async (sub: string, reason: string) =>
  (await listLedger(sub)).filter((e) => e.reason === reason).map((e) => e.delta);

const owedOf = async (user: TestUser) =>
  ((await (await payments.api('/api/me', user.idToken)).json()) as { credits: number; creditsOwed: number })
    .creditsOwed;

describe('reversed credits come back, and what is owed is paid first', () => {
  it('a won dispute restores the credits: what the dispute could not take is owed no more, the rest comes back', async () => {
    const user = await payments.buyer();
    const { id } = await paidPurchase(user); // 6 free + 60
    await spendCredits({ sub: user.sub, amount: 54, ref: `spent-${id}` }); // 12 left
    const dispute = await payments.provider.dispute(id);
    expect(dispute.delivery).toBe(200);
    expect(await getUser(user.sub)).toMatchObject({ credits: 0, creditsOwed: 48 });
    expect(await owedOf(user)).toBe(48);

    const closed = await payments.provider.closeDispute(id, 'won');
    expect(closed.event).toMatchObject({
      type: 'charge.dispute.closed',
      data: { object: { status: 'won' } },
    });
    expect(closed.delivery).toBe(200);
    // 60 given back: 48 pay what was owed, the 12 the dispute took are back on the balance.
    expect(await getUser(user.sub)).toMatchObject({ credits: 12, creditsOwed: 0 });
    expect(await entries(user.sub, 'reversal_restored')).toEqual([60]);
    expect(await entries(user.sub, 'debt_settlement')).toEqual([-48]);
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'completed', creditsReversed: 0 });
    // Replays of the close, and of the dispute's opening, change nothing.
    expect(await payments.provider.deliver(closed.event)).toBe(200);
    expect(await payments.provider.deliver(dispute.event)).toBe(200);
    expect(await getUser(user.sub)).toMatchObject({ credits: 12, creditsOwed: 0 });
    expect(await owedOf(user)).toBe(0);
    await expectLedgerBalanced(user.sub);
  });

  it('a lost dispute leaves the shortfall owed, and the next purchase settles it first, in its own transaction', async () => {
    const user = await payments.buyer();
    const { id } = await paidPurchase(user);
    await spendCredits({ sub: user.sub, amount: 54, ref: `spent-${id}` });
    await payments.provider.dispute(id);
    expect((await payments.provider.closeDispute(id, 'lost')).delivery).toBe(200);
    expect(await getUser(user.sub)).toMatchObject({ credits: 0, creditsOwed: 48 });
    expect(await getPurchase(user.sub, id)).toMatchObject({ status: 'disputed', creditsReversed: 60 });

    // The next purchase (Starter, 40 credits) pays 40 of the 48 owed; the one after pays the last 8.
    const next = await paidPurchase(user, 'starter');
    expect(await getUser(user.sub)).toMatchObject({ credits: 0, creditsOwed: 8 });
    expect(await owedOf(user)).toBe(8);
    await paidPurchase(user, 'starter');
    expect(await getUser(user.sub)).toMatchObject({ credits: 32, creditsOwed: 0 });
    expect((await entries(user.sub, 'debt_settlement')).sort()).toEqual([-40, -8]);
    expect(await entries(user.sub, 'purchase')).toEqual([40, 40, 60]);
    // The payment result page reports the balance after the settlement.
    const verified = await payments.api(`/api/checkout/sessions/${next.id}`, user.idToken);
    expect(await verified.json()).toMatchObject({ status: 'paid', credits: 32 });
    await expectLedgerBalanced(user.sub);
  });

  it('a failed refund gives the credits back once, however many events announce it', async () => {
    const user = await payments.buyer();
    const { id } = await paidPurchase(user); // 66
    const refund = await payments.provider.refund(id, { amount: 1500 }); // a third: 20 credits
    expect(refund.delivery).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(46);

    const failed = await payments.provider.failRefund(id);
    expect(failed.events.map((e) => e.type)).toEqual(['charge.refund.updated', 'refund.failed']);
    expect(failed.events[0]).toMatchObject({
      data: {
        object: { object: 'refund', status: 'failed', amount: 1500, failure_reason: expect.any(String) },
      },
    });
    expect(failed.deliveries).toEqual([200, 200]);
    expect((await getUser(user.sub))?.credits).toBe(66);
    expect(await entries(user.sub, 'reversal_restored')).toEqual([20]);
    // A late redelivery of the refund's own event cannot take them again.
    expect(await payments.provider.deliver(refund.event)).toBe(200);
    for (const event of failed.events) expect(await payments.provider.deliver(event)).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);
    expect(await getPurchase(user.sub, id)).toMatchObject({ creditsReversed: 0, amountRefunded: 0 });
    await expectLedgerBalanced(user.sub);
  });
});
