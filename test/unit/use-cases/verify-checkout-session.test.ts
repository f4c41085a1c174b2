import { describe, expect, it } from 'vitest';
import { buyCreditPack } from '../../../functions/use-cases/buy-credit-pack';
import {
  verifyCheckoutSession,
  type VerifyCheckoutSessionPorts,
} from '../../../functions/use-cases/verify-checkout-session';
import { CheckoutUnavailableError, ItemNotFoundError } from '../../../functions/domain/errors';
import { findPack } from '../../../functions/domain/packs';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { paymentsWorld } from './fakes/payments';

const pack = findPack('pro')!;
const buyer = { sub: 'buyer-1', email: 'buyer@example.com' };

async function setup(overrides: Partial<VerifyCheckoutSessionPorts> = {}) {
  const world = paymentsWorld();
  world.ledger.seedUser(buyer.sub, 1);
  const { id } = await buyCreditPack(buyer, pack, 'click-0001', world.ports);
  return { ...world, id, ports: { ...world.ports, ...overrides } };
}

describe('verifyCheckoutSession: the payment result page', () => {
  it('credits a paid session of the caller once, however often the page asks', async () => {
    const { ports, stripe, ledger, id } = await setup();
    stripe.pay(id);
    const expected = { status: 'paid', creditsAdded: pack.credits, credits: 1 + pack.credits };
    expect(await verifyCheckoutSession(buyer, id, ports)).toEqual(expected);
    expect(await verifyCheckoutSession(buyer, id, ports)).toEqual(expected);
    expect(ledger.entriesOf(buyer.sub, 'purchase').filter((e) => e.ref === id)).toHaveLength(1);
  });

  it('says unpaid while the buyer has not paid, crediting nothing', async () => {
    const { ports, id } = await setup();
    expect(await verifyCheckoutSession(buyer, id, ports)).toEqual({
      status: 'unpaid',
      creditsAdded: 0,
      credits: 1,
    });
  });

  it('answers ItemNotFoundError for another user’s session, never crediting the caller', async () => {
    const { ports, stripe, ledger, id } = await setup();
    stripe.pay(id);
    ledger.seedUser('someone-else', 0);
    const attempt = verifyCheckoutSession({ sub: 'someone-else', email: undefined }, id, ports);
    await expect(attempt).rejects.toBeInstanceOf(ItemNotFoundError);
    expect(ledger.balance('someone-else')).toBe(0);
    expect(ledger.balance(buyer.sub)).toBe(1);
  });

  it('answers ItemNotFoundError for a session Stripe does not know', async () => {
    const { ports } = await setup();
    await expect(verifyCheckoutSession(buyer, 'cs_test_unknown', ports)).rejects.toBeInstanceOf(
      ItemNotFoundError,
    );
  });

  it('answers CheckoutUnavailableError when Stripe cannot be reached', async () => {
    const { ports, id } = await setup({ retrieveCheckoutSession: failing(new Error('ECONNRESET')) });
    await expect(verifyCheckoutSession(buyer, id, ports)).rejects.toBeInstanceOf(CheckoutUnavailableError);
  });

  it('refuses past the hourly quota with QuotaExceededError before Stripe is asked', async () => {
    let asked = 0;
    const world = await setup();
    const ports = {
      ...world.ports,
      retrieveCheckoutSession: (id: string) => {
        asked++;
        return world.stripe.retrieveCheckoutSession(id);
      },
    };
    for (let i = 0; i < 60; i++) await verifyCheckoutSession(buyer, world.id, ports);
    await expect(verifyCheckoutSession(buyer, world.id, ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(asked).toBe(60);
  });

  it('creates a buyer the table does not know yet with the e-mail of their token', async () => {
    const world = paymentsWorld();
    const { id } = await buyCreditPack(
      { sub: 'new-buyer', email: undefined },
      pack,
      'click-0002',
      world.ports,
    );
    world.stripe.pay(id);
    const result = await verifyCheckoutSession(
      { sub: 'new-buyer', email: 'new@example.com' },
      id,
      world.ports,
    );
    expect(result.credits).toBe(6 + pack.credits);
    expect(world.ledger.users.get('new-buyer')?.email).toBe('new@example.com');
  });
});
