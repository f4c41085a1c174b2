import { describe, expect, it } from 'vitest';
import { buyCreditPack, type BuyCreditPackPorts } from '../../../functions/use-cases/buy-credit-pack';
import { AccountDeletingError, CheckoutFailedError } from '../../../functions/domain/errors';
import { findPack } from '../../../functions/domain/packs';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { paymentsWorld } from './fakes/payments';

const pack = findPack('popular')!;
const buyer = { sub: 'buyer-1', email: 'buyer@example.com' };

function setup(overrides: Partial<BuyCreditPackPorts> = {}) {
  const world = paymentsWorld();
  world.ledger.seedUser(buyer.sub, 0, { email: 'stored@example.com' });
  return { ...world, ports: { ...world.ports, ...overrides } };
}

describe('buyCreditPack: the Stripe Checkout Session of a credit pack', () => {
  it('sells the pack at the server’s price and records the pending purchase before handing out the URL', async () => {
    const { ports, stripe, purchases, quotas } = setup();
    const session = await buyCreditPack(buyer, pack, 'click-0001', ports);
    expect(session.url).toBe(`https://checkout.stripe.test/${session.id}`);
    expect(stripe.sessions.get(session.id)).toMatchObject({
      amount_subtotal: pack.priceCents,
      client_reference_id: buyer.sub,
      customer_email: buyer.email,
      metadata: { user_id: buyer.sub, pack_id: pack.id, credits: String(pack.credits) },
    });
    expect(await purchases.getPendingPurchase(buyer.sub, session.id)).toEqual({
      packId: pack.id,
      credits: pack.credits,
      priceCents: pack.priceCents,
      currency: 'usd',
    });
    expect(quotas.usedBy(buyer.sub, 'checkout-sessions')).toBe(1);
  });

  it('prefills the stored e-mail when the token carries none (an access token)', async () => {
    const { ports, stripe } = setup();
    const session = await buyCreditPack({ sub: buyer.sub, email: undefined }, pack, 'click-0002', ports);
    expect(stripe.sessions.get(session.id)?.customer_email).toBe('stored@example.com');
  });

  it('returns the same session for the same click (idempotency key) and a new one for another click', async () => {
    const { ports, stripe } = setup();
    const first = await buyCreditPack(buyer, pack, 'click-0003', ports);
    const again = await buyCreditPack(buyer, pack, 'click-0003', ports);
    const other = await buyCreditPack(buyer, pack, 'click-0004', ports);
    expect(again).toEqual(first);
    expect(other.id).not.toBe(first.id);
    expect(stripe.sessions.size).toBe(2);
  });

  it('refuses past the hourly quota with QuotaExceededError, before Stripe is asked', async () => {
    const { ports, stripe } = setup();
    for (let i = 0; i < 10; i++) await buyCreditPack(buyer, pack, `click-1${i}00`, ports);
    await expect(buyCreditPack(buyer, pack, 'click-2000', ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(stripe.sessions.size).toBe(10);
  });

  it('refuses an account being deleted (the quota’s guard), creating nothing', async () => {
    const { ports, stripe, quotas } = setup();
    quotas.deleting.add(buyer.sub);
    await expect(buyCreditPack(buyer, pack, 'click-3000', ports)).rejects.toBeInstanceOf(
      AccountDeletingError,
    );
    expect(stripe.sessions.size).toBe(0);
  });

  it('answers CheckoutFailedError when Stripe fails, giving the quota unit back', async () => {
    const { ports, purchases, quotas } = setup({ createCheckoutSession: failing() });
    await expect(buyCreditPack(buyer, pack, 'click-4000', ports)).rejects.toBeInstanceOf(CheckoutFailedError);
    expect(quotas.usedBy(buyer.sub, 'checkout-sessions')).toBe(0);
    expect(purchases.pending.size).toBe(0);
  });

  it('expires the session when its pending purchase cannot be recorded, so nobody can pay it', async () => {
    const { ports, stripe, quotas } = setup({ putPendingPurchase: failing() });
    await expect(buyCreditPack(buyer, pack, 'click-5000', ports)).rejects.toBeInstanceOf(CheckoutFailedError);
    const [id] = [...stripe.sessions.keys()];
    expect(stripe.expired).toEqual([id]);
    expect(stripe.sessions.get(id!)?.status).toBe('expired');
    expect(quotas.usedBy(buyer.sub, 'checkout-sessions')).toBe(0);
  });

  it('still answers CheckoutFailedError when expiring the unrecorded session fails too', async () => {
    const { ports } = setup({ putPendingPurchase: failing(), expireCheckoutSession: failing() });
    await expect(buyCreditPack(buyer, pack, 'click-6000', ports)).rejects.toBeInstanceOf(CheckoutFailedError);
  });
});
