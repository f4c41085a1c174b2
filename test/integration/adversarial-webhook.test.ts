import { describe, expect, inject, it, vi } from 'vitest';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { logger } from '../../functions/common/logger';
import { checkoutEvent } from '../../infrastructure/local/stand-ins/stripe/server';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { purchasesOf, usePaymentsStack } from '../helpers/payments-stack';

/*
 * The Stripe webhook under events that arrive in an order, or with a content, Stripe's happy path never shows:
 * `checkout.session.async_payment_succeeded` before `checkout.session.completed`, an async success that outruns the
 * payment, both kinds at once, an event whose snapshot claims "paid" while Stripe says otherwise, and a signed event
 * naming a session Stripe does not know. Credits move exactly once overall, and only for a paid session.
 *
 * Tampered bodies, wrong secrets, stale timestamps, malformed signatures and unknown event types are covered in
 * payments.test.ts ('tampered body, wrong secret, stale timestamp…', 'checkout.session.async_payment_succeeded
 * fulfils; other event types are acknowledged and ignored'); adversarial-fuzz.test.ts adds 200 generated events.
 *
 * Like payments.test.ts, this file runs the payment routes behind a gateway and a local Checkout provider of its
 * own, so it decides when (and whether) each event is delivered.
 */

const { runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
// No webhook URL: these tests deliver every event themselves.
const payments = usePaymentsStack({ deliverWebhooks: false });
const touch = checkLedgersAfterEachTest();

// --- helpers ---------------------------------------------------------------------------------------------------

async function newUser(): Promise<TestUser> {
  const user = await createTestUser(pool); // the post-confirmation trigger gives 6 credits
  touch(user.sub);
  return user;
}

const createSession = async (user: TestUser, packId = 'popular') =>
  (await payments.createSession(user, { packId })).id;

type EventType = 'checkout.session.completed' | 'checkout.session.async_payment_succeeded';

/** Signs `event` like Stripe (now, the right secret) and POSTs it; resolves with status and JSON body. */
async function deliver(event: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const res = await payments.deliver(JSON.stringify(event, null, 2));
  return { status: res.status, body: await res.json() };
}

/** The event of `type` for the session as the provider has it now, optionally with its snapshot overridden. */
const eventFor = (type: EventType, id: string, snapshot: Record<string, unknown> = {}) =>
  checkoutEvent(type, { ...payments.provider.getSession(id)!, ...snapshot });

const verify = async (user: TestUser, id: string) => (await payments.verify(user, id)).json();

/** The purchase ledger entries of a user, as [delta, ref]. */
const purchases = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'purchase').map((e) => [e.delta, e.ref]);

const paid = { received: true, status: 'paid', creditsAdded: 60 };

// --- tests -----------------------------------------------------------------------------------------------------

describe('POST /api/webhooks/stripe: out-of-order and conflicting events', () => {
  it('async_payment_succeeded before completed: credited exactly once overall', async () => {
    const user = await newUser();
    const id = await createSession(user);
    await payments.provider.pay(id, { deliver: false });

    expect(await deliver(eventFor('checkout.session.async_payment_succeeded', id))).toEqual({
      status: 200,
      body: paid,
    });
    expect((await getUser(user.sub))?.credits).toBe(66);
    // The completed event arrives afterwards, paid…
    expect(await deliver(eventFor('checkout.session.completed', id))).toEqual({ status: 200, body: paid });
    // …or as the pending snapshot Stripe sent first for a delayed payment method, arriving last.
    expect(
      await deliver(
        eventFor('checkout.session.completed', id, { status: 'complete', payment_status: 'unpaid' }),
      ),
    ).toEqual({ status: 200, body: { received: true, status: 'unpaid' } });
    expect(await verify(user, id)).toEqual({ status: 'paid', creditsAdded: 60, credits: 66 });

    expect((await getUser(user.sub))?.credits).toBe(66);
    expect(await purchases(user.sub)).toEqual([[60, id]]);
    expect(await purchasesOf(user.sub)).toHaveLength(1);
  });

  it('an async success that outruns the payment credits nothing; then 10 mixed events at once credit once', async () => {
    const user = await newUser();
    const id = await createSession(user, 'pro');
    // Stripe still says unpaid: fulfilment trusts the retrieved session, not the event's type.
    const early = await deliver(eventFor('checkout.session.async_payment_succeeded', id));
    expect(early).toEqual({ status: 200, body: { received: true, status: 'unpaid', creditsAdded: 0 } });
    expect((await getUser(user.sub))?.credits).toBe(6);

    await payments.provider.pay(id, { deliver: false });
    const events = Array.from({ length: 10 }, (_, i) =>
      eventFor(i % 2 ? 'checkout.session.completed' : 'checkout.session.async_payment_succeeded', id),
    );
    const answers = await Promise.all([...events.map(deliver), verify(user, id)]);
    for (const answer of answers.slice(0, 10)) {
      expect(answer).toEqual({ status: 200, body: { received: true, status: 'paid', creditsAdded: 100 } });
    }
    expect(answers[10]).toEqual({ status: 'paid', creditsAdded: 100, credits: 106 });
    expect((await getUser(user.sub))?.credits).toBe(106);
    expect(await purchases(user.sub)).toEqual([[100, id]]);
  });

  it('a completed event whose snapshot claims "paid" while Stripe says unpaid credits nothing', async () => {
    const user = await newUser();
    const id = await createSession(user);
    const forged = eventFor('checkout.session.completed', id, {
      status: 'complete',
      payment_status: 'paid',
      amount_total: 4500,
    });
    expect(await deliver(forged)).toEqual({
      status: 200,
      body: { received: true, status: 'unpaid', creditsAdded: 0 },
    });
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);
  });

  it('signed events that are not well-formed events are acknowledged and ignored, never a 500', async () => {
    const user = await newUser();
    const id = await createSession(user);
    await payments.provider.pay(id, { deliver: false });
    const malformed: Record<string, unknown>[] = [
      { type: 'checkout.session.completed' },
      { type: 'checkout.session.completed', data: null },
      { type: 'checkout.session.async_payment_succeeded', data: { object: null } },
      { type: 'checkout.session.async_payment_succeeded', data: { object: [id] } },
      { type: ['checkout.session.completed'], data: { object: { id, payment_status: 'paid' } } },
    ];
    for (const event of malformed) {
      expect(await deliver(event), JSON.stringify(event)).toEqual({
        status: 200,
        body: { received: true, ignored: true },
      });
    }
    expect((await getUser(user.sub))?.credits).toBe(6);
  });

  it('a signed fulfilment event naming a session Stripe does not know → 500 on purpose (Stripe retries), no credit', async () => {
    // The one 5xx a body can cause, and only with the signing secret: a well-formed session id Stripe cannot find
    // means a configuration problem (another account's key or endpoint), so Stripe should keep the event and retry.
    const user = await newUser();
    const id = await createSession(user);
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const res = await deliver(
        eventFor('checkout.session.completed', id, {
          id: 'cs_test_unknownToStripe0001',
          payment_status: 'paid',
        }),
      );
      expect(res).toEqual({
        status: 500,
        body: {
          error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' },
        },
      });
    } finally {
      errors.mockRestore();
    }
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await purchasesOf(user.sub)).toEqual([]);
  });
});
