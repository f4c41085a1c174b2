import { describe, expect, it } from 'vitest';
import { buyCreditPack } from '../../../functions/use-cases/buy-credit-pack';
import { fulfillCheckout, type FulfillCheckoutPorts } from '../../../functions/use-cases/fulfill-checkout';
import { findPack } from '../../../functions/domain/packs';
import { failing } from './fakes/failures';
import { paymentsWorld } from './fakes/payments';

const pack = findPack('starter')!;
const sub = 'buyer-1';

/** A world with the buyer (`balance` credits) and an open session for `pack`, as POST /checkout/sessions left it. */
async function setup(
  options: { balance?: number; user?: boolean; ports?: Partial<FulfillCheckoutPorts> } = {},
) {
  const world = paymentsWorld();
  if (options.user !== false) world.ledger.seedUser(sub, options.balance ?? 0);
  const session = await buyCreditPack({ sub, email: 'buyer@example.com' }, pack, 'click-0001', world.ports);
  return { ...world, id: session.id, ports: { ...world.ports, ...options.ports } };
}

describe('fulfillCheckout: a paid Checkout Session is credited once', () => {
  it('credits the pack, stores the purchase with its receipt and payment intent, and counts the sale', async () => {
    const { ports, stripe, ledger, purchases, analytics, id } = await setup({ balance: 2 });
    stripe.pay(id, 'pi_1');
    expect(await fulfillCheckout(id, ports)).toEqual({
      status: 'paid',
      creditsAdded: pack.credits,
      credits: 2 + pack.credits,
      applied: true,
    });
    expect(ledger.ledgerSum(sub)).toBe(ledger.balance(sub));
    expect(purchases.purchase(sub, id)).toMatchObject({
      packId: pack.id,
      credits: pack.credits,
      amountTotal: pack.priceCents,
      paymentIntentId: 'pi_1',
      receiptUrl: 'https://pay.stripe.test/receipts/pi_1',
      status: 'completed',
      creditsReversed: 0,
    });
    expect(await purchases.findPaymentIntent('pi_1')).toEqual({ sub, checkoutSessionId: id });
    expect(analytics.tracked).toEqual([
      { name: 'purchase_completed', sub, props: { packId: pack.id, credits: pack.credits } },
    ]);
  });

  it('is idempotent: a replay (webhook after the success page) changes nothing and reports the same purchase', async () => {
    const { ports, stripe, ledger, analytics, id } = await setup();
    stripe.pay(id);
    await fulfillCheckout(id, ports);
    const again = await fulfillCheckout(id, ports);
    expect(again).toEqual({
      status: 'paid',
      creditsAdded: pack.credits,
      credits: pack.credits,
      applied: false,
    });
    expect(ledger.entriesOf(sub, 'purchase')).toHaveLength(1);
    expect(analytics.tracked).toHaveLength(1);
  });

  it('credits nothing for a session not paid yet, or expired, and reports the balance', async () => {
    const { ports, stripe, ledger, id } = await setup({ balance: 3 });
    expect(await fulfillCheckout(id, ports)).toEqual({
      status: 'unpaid',
      creditsAdded: 0,
      credits: 3,
      applied: false,
    });
    stripe.sessions.get(id)!.status = 'expired';
    expect((await fulfillCheckout(id, ports)).status).toBe('expired');
    expect(ledger.balance(sub)).toBe(3);
  });

  it('credits what the pending purchase promised, not today’s price list', async () => {
    const { ports, stripe, purchases, ledger, id } = await setup();
    // The session was sold at an older price and size; Stripe charged that price.
    purchases.pending.set(`${sub}|${id}`, {
      packId: pack.id,
      credits: 30,
      priceCents: 2500,
      currency: 'usd',
    });
    Object.assign(stripe.sessions.get(id)!, {
      amount_subtotal: 2500,
      metadata: { user_id: sub, pack_id: pack.id },
    });
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).creditsAdded).toBe(30);
    expect(ledger.balance(sub)).toBe(30);
  });

  it('answers invalid, crediting nothing, for a paid session that does not match its pending purchase', async () => {
    const { ports, stripe, ledger, purchases, id } = await setup();
    stripe.pay(id);
    stripe.sessions.get(id)!.amount_subtotal = 1;
    expect(await fulfillCheckout(id, ports)).toEqual({
      status: 'invalid',
      creditsAdded: 0,
      credits: 0,
      applied: false,
    });
    expect(ledger.entriesOf(sub)).toHaveLength(0);
    expect(purchases.purchase(sub, id)).toBeUndefined();
  });

  it('credits a 100 % promotion code (nothing paid, nothing to refund: no payment intent)', async () => {
    const { ports, stripe, purchases, ledger, id } = await setup();
    Object.assign(stripe.sessions.get(id)!, {
      status: 'complete',
      payment_status: 'no_payment_required',
      amount_total: 0,
    });
    expect((await fulfillCheckout(id, ports)).status).toBe('paid');
    expect(ledger.balance(sub)).toBe(pack.credits);
    expect(purchases.purchase(sub, id)).toMatchObject({
      amountTotal: 0,
      paymentIntentId: undefined,
      receiptUrl: null,
    });
    expect(purchases.paymentIntents.size).toBe(0);
  });

  it('pays what the account owes first, with a debt_settlement entry', async () => {
    const { ports, stripe, ledger, id } = await setup({ balance: 0 });
    ledger.users.get(sub)!.creditsOwed = 5;
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).credits).toBe(pack.credits - 5);
    expect(ledger.users.get(sub)?.creditsOwed).toBe(0);
    expect(ledger.entriesOf(sub, 'debt_settlement').map((e) => e.delta)).toEqual([-5]);
    expect(ledger.ledgerSum(sub)).toBe(ledger.balance(sub));
  });

  it('creates a buyer not seen yet (webhook before the first GET /api/me) with their free credits', async () => {
    const { ports, stripe, ledger, id } = await setup({ user: false });
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).credits).toBe(6 + pack.credits);
    expect(ledger.users.get(sub)?.email).toBe('buyer@example.com');
  });

  it('refuses to credit a new buyer whose e-mail nobody knows (an error: the webhook is retried)', async () => {
    const world = paymentsWorld();
    world.stripe.seedSession({
      id: 'cs_test_anonymous',
      status: 'complete',
      payment_status: 'paid',
      amount_total: pack.priceCents,
      amount_subtotal: pack.priceCents,
      client_reference_id: 'stranger',
      metadata: { user_id: 'stranger', pack_id: pack.id },
      payment_intent: 'pi_x',
    });
    await expect(fulfillCheckout('cs_test_anonymous', world.ports)).rejects.toThrow(/no e-mail known/);
    expect(world.ledger.users.size).toBe(0);
  });

  it('still credits when Stripe cannot give the receipt (the history shows none)', async () => {
    const { ports, stripe, purchases, id } = await setup({ ports: { receiptUrlOf: failing() } });
    stripe.pay(id);
    expect((await fulfillCheckout(id, ports)).applied).toBe(true);
    expect(purchases.purchase(sub, id)?.receiptUrl).toBeNull();
  });

  it('fails when Stripe cannot be reached, so the webhook is delivered again', async () => {
    const down = new Error('Stripe unreachable');
    const { ports, id } = await setup({ ports: { retrieveCheckoutSession: failing(down) } });
    await expect(fulfillCheckout(id, ports)).rejects.toBe(down);
  });

  it('fails without counting a sale when the ledger’s write fails', async () => {
    const down = new Error('table down');
    const { ports, stripe, analytics, id } = await setup({ ports: { grantCredits: failing(down) } });
    stripe.pay(id);
    await expect(fulfillCheckout(id, ports)).rejects.toBe(down);
    expect(analytics.tracked).toHaveLength(0);
  });
});

describe('fulfillCheckout: the receipt e-mail (issue 35)', () => {
  it('sends one receipt after the credits land, however often the session is fulfilled (webhook replays)', async () => {
    const { ports, stripe, mail, id } = await setup();
    stripe.pay(id, 'pi_1');
    await fulfillCheckout(id, ports);
    await fulfillCheckout(id, ports);
    await fulfillCheckout(id, ports);
    expect(mail.mailer.sent).toHaveLength(1);
    expect(mail.mailer.sent[0]!.to).toBe(`${sub}@example.com`);
    expect(mail.mailer.sent[0]!.content.subject).toBe('Your receipt: 40 credits for $35.00');
    expect(mail.mailer.sent[0]!.content.text).toContain('https://pay.stripe.test/receipts/pi_1');
  });

  it('sends none for a session that is not paid, or does not match its purchase', async () => {
    const { ports, mail, id } = await setup();
    expect((await fulfillCheckout(id, ports)).status).toBe('unpaid');
    expect(mail.mailer.sent).toEqual([]);
  });

  it('credits when the mail fails, and the next call for the session (a replay, the success page) sends it', async () => {
    const { ports, stripe, ledger, mail, id } = await setup();
    stripe.pay(id);
    mail.mailer.refuseWith = Object.assign(new Error('Maximum sending rate exceeded.'), {
      name: 'TooManyRequestsException',
    });
    expect(await fulfillCheckout(id, ports)).toMatchObject({ status: 'paid', applied: true });
    expect(ledger.balance(sub)).toBe(pack.credits);
    expect(mail.markers.state('receipt', sub, id)).toMatchObject({ claimed: false, failures: 1 });

    mail.mailer.refuseWith = undefined;
    expect(await fulfillCheckout(id, ports)).toMatchObject({ status: 'paid', applied: false });
    expect(mail.mailer.sent).toHaveLength(1);
    expect(ledger.balance(sub)).toBe(pack.credits);
  });

  it('credits even when the receipt port itself fails', async () => {
    const { ports, stripe, ledger, id } = await setup({ ports: { sendReceiptMail: failing() } });
    stripe.pay(id);
    expect(await fulfillCheckout(id, ports)).toMatchObject({ status: 'paid', applied: true });
    expect(ledger.balance(sub)).toBe(pack.credits);
  });
});
