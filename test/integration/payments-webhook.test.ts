import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { siteSettings } from '../../functions/config/site';
import { buildCheckoutSessionParams } from '../../functions/domain/checkout';
import { findPack } from '../../functions/domain/packs';
import { logger } from '../../functions/common/logger';
import { checkoutEvent, newWebhookSecret } from '../../infrastructure/local/stand-ins/stripe/server';
import { expectLedgerBalanced } from '../helpers/ledger';
import {
  expectNothingCredited,
  newBuyer,
  purchaseEntries,
  purchasesOf,
  usePaymentsStack,
} from '../helpers/payments-stack';

/*
 * The Stripe webhook against the real emulators and the real `stripe` SDK, with a Checkout provider and gateway of
 * this test file's own (test/helpers/payments-stack.ts), so each test decides when, how often and how an event is
 * delivered: signed, replayed, tampered with, early, or of another type. payments-sessions.test.ts covers creating
 * and verifying sessions.
 */

// No webhook URL: these tests deliver (and tamper with) every event themselves.
const payments = usePaymentsStack({ deliverWebhooks: false, keepSessions: true });

describe('POST /api/webhooks/stripe', () => {
  it('a signed checkout.session.completed credits the pack once, with the purchase item in the same write', async () => {
    const user = await newBuyer(); // the Cognito post-confirmation trigger gave them 6 credits
    const { id } = await payments.createSession(user);
    const payload = await payments.paidEvent(id);

    const res = await payments.deliver(payload);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'paid', creditsAdded: 60 });
    expect((await getUser(user.sub))?.credits).toBe(66);

    const again = await payments.deliver(payload);
    expect(again.status).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);

    const session = payments.provider.getSession(id)!;
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
        // Stripe's receipt for the charge, kept at fulfilment for the purchase history.
        receiptUrl: expect.stringMatching(/\/receipts\/ch_/),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        // The receipt e-mail's once-only marker, set after the credits land (use-cases/fulfil-checkout.ts).
        receiptMailedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
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
    const user = await newBuyer();
    const { id } = await payments.createSession(user);
    const payload = await payments.paidEvent(id);

    const [hooks, checks] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => payments.deliver(payload))),
      Promise.all(Array.from({ length: 5 }, () => payments.verify(user, id))),
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
    const user = await newBuyer();
    const { id } = await payments.createSession(user);
    const payload = await payments.paidEvent(id);
    const now = Math.floor(Date.now() / 1000);
    const attempts = [
      payments.deliver(payload, { body: payload.replace('"amount_total": 4500', '"amount_total": 1') }),
      payments.deliver(payload, { body: payload.replace('"livemode": false', '"livemode": true') }),
      payments.deliver(payload, { secret: newWebhookSecret() }),
      payments.deliver(payload, { timestamp: now - 301 }),
      payments.deliver(payload, { timestamp: now - 3600 }),
      payments.deliver(payload, { header: null }),
      payments.deliver(payload, { header: 't=abc,v1=def' }),
      payments.deliver(payload, { header: `t=${now},v0=${'0'.repeat(64)}` }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'INVALID_SIGNATURE', message: expect.any(String) } });
    }
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);

    // The untampered event within the tolerance is accepted: the rejections above were about the signature alone.
    const ok = await payments.deliver(payload, { timestamp: now - 250 });
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
      siteOrigin: siteSettings().SITE_ORIGIN,
    });
    const session = await payments.stripe.checkout.sessions.create(params);
    expect(await getUser(sub)).toBeUndefined();
    const res = await payments.deliver(await payments.paidEvent(session.id));
    expect(await res.json()).toEqual({ received: true, status: 'paid', creditsAdded: 40 });
    expect(await getUser(sub)).toMatchObject({ email, credits: 46 });
    expect((await listLedger(sub)).map((e) => e.reason).sort()).toEqual(['purchase', 'signup_bonus']);
    await expectLedgerBalanced(sub);
  });

  it('verifies a base64-encoded body (isBase64Encoded) on its exact bytes', async () => {
    const user = await newBuyer();
    const { id } = await payments.createSession(user);
    const event = JSON.parse(await payments.paidEvent(id)) as Record<string, unknown>;
    // Non-ASCII text: decoding to a string and re-encoding would be fine here, but bytes must be what is verified.
    const payload = JSON.stringify({ ...event, note: 'Café ☕ — ünïcödé' }, null, 2);
    const res = await payments.deliver(payload, { contentType: 'application/octet-stream' });
    expect(res.status).toBe(200);
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
  });

  it('checkout.session.async_payment_succeeded fulfils; other event types are acknowledged and ignored', async () => {
    const user = await newBuyer();
    const { id } = await payments.createSession(user);
    await payments.provider.pay(id, { deliver: false });
    const ignored = await payments.deliver(
      JSON.stringify({
        ...checkoutEvent('checkout.session.expired', payments.provider.getSession(id)!),
        type: 'charge.succeeded',
      }),
    );
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: true });
    expect((await getUser(user.sub))?.credits).toBe(6);

    const async = await payments.deliver(
      JSON.stringify(
        checkoutEvent('checkout.session.async_payment_succeeded', payments.provider.getSession(id)!),
      ),
    );
    expect(await async.json()).toEqual({ received: true, status: 'paid', creditsAdded: 60 });
    expect((await getUser(user.sub))?.credits).toBe(66);
    await expectLedgerBalanced(user.sub);
  });

  it('an unpaid checkout.session.completed (payment still pending) credits nothing', async () => {
    const user = await newBuyer();
    const { id } = await payments.createSession(user);
    const pending = { ...payments.provider.getSession(id)!, status: 'complete', payment_status: 'unpaid' };
    const res = await payments.deliver(JSON.stringify(checkoutEvent('checkout.session.completed', pending)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'unpaid' });
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);
  });

  it('a paid session that does not match the pack it names is not credited, and is logged', async () => {
    const user = await newBuyer();
    const params = buildCheckoutSessionParams({
      pack: findPack('popular')!,
      sub: user.sub,
      email: user.email,
      siteOrigin: siteSettings().SITE_ORIGIN,
    });
    params.line_items[0].price_data.unit_amount = 100; // $1 for the Popular Pack: made outside our API
    const session = await payments.stripe.checkout.sessions.create(params);
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const res = await payments.deliver(await payments.paidEvent(session.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, status: 'invalid', creditsAdded: 0 });
    expect(errors).toHaveBeenCalledWith(
      'Checkout Session not credited: it does not match the purchase recorded for it',
      expect.objectContaining({ checkoutSessionId: session.id }),
    );
    await expectNothingCredited(payments, user, session.id, 'invalid');
  });
});
