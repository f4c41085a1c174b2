import { describe, expect, it } from 'vitest';
import {
  assessCheckoutSession,
  buildCheckoutSessionParams,
  checkoutIdempotencyKey,
  CLIENT_IDEMPOTENCY_KEY_PATTERN,
  isCheckoutSessionId,
  type CheckoutSessionLike,
} from '../../functions/domain/checkout';
import { CREDIT_PACKS, findPack } from '../../functions/domain/packs';

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
        cancel_url: `https://headshot.studio/checkout/cancelled?pack=${pack.id}`,
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
