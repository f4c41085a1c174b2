import { describe, expect, it, vi } from 'vitest';
import { getUser } from '../../functions/adapters/ledger';
import { siteSettings } from '../../functions/config/site';
import { logger } from '../../functions/common/logger';
import { expectLedgerBalanced } from '../helpers/ledger';
import {
  expectNothingCredited,
  newBuyer,
  purchaseEntries,
  usePaymentsStack,
} from '../helpers/payments-stack';

/*
 * Checkout Sessions against the real emulators and the real `stripe` SDK, with a Checkout provider and gateway of
 * this test file's own (test/helpers/payments-stack.ts): creating a session from the server's pack, and the success
 * page's verification that fulfils a paid session without a webhook. payments-webhook.test.ts covers the webhook;
 * payments-flow.test.ts drives the stack's own wiring.
 */

// No webhook URL: these tests deliver (and tamper with) every event themselves.
const payments = usePaymentsStack({ deliverWebhooks: false, keepSessions: true });

// --- creation --------------------------------------------------------------------------------------------------

describe('POST /api/checkout/sessions', () => {
  it('creates the session from the server pack: card, one USD line item, return URLs, owner, metadata', async () => {
    const user = await newBuyer();
    const { id, url } = await payments.createSession(user);
    expect(id).toMatch(/^cs_test_/);
    expect(url).toBe(`http://localhost:${payments.provider.port}/pay/${id}`);
    const session = await payments.stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
    const origin = siteSettings().SITE_ORIGIN;
    expect(session).toMatchObject({
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      allowed_payment_method_types: ['card'],
      currency: 'usd',
      amount_total: 4500,
      success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}&redirect=dashboard`,
      cancel_url: `${origin}/checkout/cancelled?pack=popular`,
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
    const user = await newBuyer();
    const { id } = await payments.createSession(user, {
      packId: 'starter',
      price: 1,
      priceCents: 1,
      unit_amount: 1,
      amount: 1,
      credits: 10_000,
      metadata: { credits: '10000' },
    });
    const session = await payments.stripe.checkout.sessions.retrieve(id, { expand: ['line_items'] });
    expect(session.amount_total).toBe(3500);
    expect(session.line_items?.data[0]?.price?.unit_amount).toBe(3500);
    expect(session.metadata).toMatchObject({ pack_id: 'starter', credits: '40', amount: '3500' });
  });

  it('unknown packId, no body or a malformed Idempotency-Key → 400; no token → 401', async () => {
    const user = await newBuyer();
    const post = (body: string | undefined, headers: Record<string, string> = {}) =>
      payments.api('/api/checkout/sessions', user.idToken, { method: 'POST', body, headers });
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
    const anonymous = await payments.api('/api/checkout/sessions', undefined, {
      method: 'POST',
      body: JSON.stringify({ packId: 'pro' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('the same Idempotency-Key returns the same session; it is scoped to the pack and the user', async () => {
    const [a, b] = await Promise.all([newBuyer(), newBuyer()]);
    const key = { 'idempotency-key': 'click-3f9a2c71' };
    const [first, second] = await Promise.all([
      payments.createSession(a, { packId: 'pro' }, key),
      payments.createSession(a, { packId: 'pro' }, key),
    ]);
    expect(second.id).toBe(first.id);
    expect((await payments.createSession(a, { packId: 'starter' }, key)).id).not.toBe(first.id);
    expect((await payments.createSession(b, { packId: 'pro' }, key)).id).not.toBe(first.id);
    expect((await payments.createSession(a, { packId: 'pro' })).id).not.toBe(first.id);
  });

  it('answers 502 CHECKOUT_FAILED when the provider is down, and a restarted provider keeps its sessions', async () => {
    const user = await newBuyer();
    const before = await payments.createSession(user);
    await payments.provider.stop();
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const res = await payments.api('/api/checkout/sessions', user.idToken, {
        method: 'POST',
        body: JSON.stringify({ packId: 'popular' }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        error: { code: 'CHECKOUT_FAILED', message: 'Failed to create checkout session' },
      });
      expect(errors).toHaveBeenCalledWith('Creating a Checkout Session failed', expect.anything());
      expect(JSON.stringify(errors.mock.calls)).not.toContain(payments.webhookSecret);
    } finally {
      await payments.restartProvider();
    }
    expect((await payments.stripe.checkout.sessions.retrieve(before.id)).status).toBe('open');
  });
});
describe('GET /api/checkout/sessions/{id}', () => {
  it('fulfils a paid session even if the webhook never arrives, exactly once', async () => {
    const user = await newBuyer();
    const { id } = await payments.createSession(user, { packId: 'pro' });
    await payments.provider.pay(id, { deliver: false });
    expect(await (await payments.verify(user, id)).json()).toEqual({
      status: 'paid',
      creditsAdded: 100,
      credits: 106,
    });
    expect(await (await payments.verify(user, id)).json()).toEqual({
      status: 'paid',
      creditsAdded: 100,
      credits: 106,
    });
    expect(await purchaseEntries(user.sub)).toHaveLength(1);
    await expectLedgerBalanced(user.sub);
  });

  it('a declined session: no credit and status unpaid; an expired one: status expired', async () => {
    const user = await newBuyer();
    const declined = await payments.createSession(user);
    payments.provider.decline(declined.id);
    const res = await payments.verify(user, declined.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'unpaid', creditsAdded: 0, credits: 6 });

    const expired = await payments.createSession(user, { packId: 'starter' });
    await payments.stripe.checkout.sessions.expire(expired.id);
    await expectNothingCredited(payments, user, expired.id, 'expired');
  });

  it("another user's session → 404 (and is not fulfilled); an unknown id → 404; a malformed id → 400", async () => {
    const [owner, other] = await Promise.all([newBuyer(), newBuyer()]);
    const { id } = await payments.createSession(owner);
    await payments.provider.pay(id, { deliver: false });

    const stolen = await payments.verify(other, id);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Checkout session not found.' },
    });
    expect((await getUser(owner.sub))?.credits).toBe(6);
    expect((await getUser(other.sub))?.credits).toBe(6);

    const unknown = await payments.verify(other, 'cs_test_doesNotExist123');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'Checkout session not found.' },
    });

    for (const bad of ['pi_123', 'cs_test_x%2F..%2Fpayment_intents', 'cs_', 'cs_test_a-b']) {
      const res = await payments.verify(other, bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.code).toBe('VALIDATION_ERROR');
    }
    expect((await payments.api(`/api/checkout/sessions/${id}`)).status).toBe(401);
  });
});
