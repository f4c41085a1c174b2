import { describe, expect, it } from 'vitest';
import { CreditChangeGuardError } from '../../../functions/adapters/ledger';
import { PurchaseChangedError } from '../../../functions/adapters/reversals';
import type { AccountRef } from '../../../functions/domain/ledger-account';
import { PurchaseNotFoundError } from '../../../functions/domain/reversals';
import { reversePurchase } from '../../../functions/use-cases/reverse-purchase';
import { failing, failingFirst } from './fakes/failures';
import { PAID_PURCHASE, paidPurchaseWorld } from './fakes/paid-purchase';

const { sub, session, pi, credits: CREDITS, amount: AMOUNT } = PAID_PURCHASE;

const refund = (amountRefunded: number, at?: number) =>
  ({ kind: 'refund', amount: AMOUNT, amountRefunded, ...(at ? { at } : {}) }) as const;

describe('reversePurchase: a refund or dispute takes the purchase’s credits back', () => {
  it('takes every credit back for a full refund, in one entry, and marks the purchase refunded', async () => {
    const { ports, ledger, purchases } = paidPurchaseWorld(50);
    expect(await reversePurchase(pi, refund(AMOUNT), ports)).toEqual({
      checkoutSessionId: session,
      creditsTaken: CREDITS,
      shortfall: 0,
      creditsReversed: CREDITS,
    });
    expect(ledger.balance(sub)).toBe(10);
    expect(ledger.entriesOf(sub, 'reversal').map((e) => e.delta)).toEqual([-CREDITS]);
    expect(ledger.ledgerSum(sub)).toBe(ledger.balance(sub));
    expect(purchases.purchase(sub, session)).toMatchObject({
      status: 'refunded',
      creditsReversed: CREDITS,
      amountRefunded: AMOUNT,
    });
  });

  it('takes the refunded share rounded up, then only the rest as the cumulative refund grows', async () => {
    const { ports, ledger } = paidPurchaseWorld();
    expect((await reversePurchase(pi, refund(1000), ports)).creditsTaken).toBe(12); // ceil(40 × 1000 / 3500)
    expect((await reversePurchase(pi, refund(AMOUNT), ports)).creditsTaken).toBe(CREDITS - 12);
    expect(ledger.balance(sub)).toBe(0);
  });

  it('changes nothing for a replayed or older event (cumulative amounts give no new target)', async () => {
    const { ports, ledger } = paidPurchaseWorld();
    await reversePurchase(pi, refund(2000), ports);
    const balance = ledger.balance(sub);
    expect((await reversePurchase(pi, refund(2000), ports)).creditsTaken).toBe(0);
    expect((await reversePurchase(pi, refund(1000), ports)).creditsTaken).toBe(0);
    expect(ledger.balance(sub)).toBe(balance);
    expect(ledger.entriesOf(sub, 'reversal')).toHaveLength(1);
  });

  it('takes nothing again for a refund delivery no newer than a refund’s failure', async () => {
    const { ports, purchases, ledger } = paidPurchaseWorld();
    purchases.seedPurchase(sub, {
      checkoutSessionId: session,
      credits: CREDITS,
      amountTotal: AMOUNT,
      paymentIntentId: pi,
      refundsAsOf: 1_700_000_000,
    });
    expect((await reversePurchase(pi, refund(AMOUNT, 1_700_000_000), ports)).creditsTaken).toBe(0);
    expect((await reversePurchase(pi, refund(AMOUNT, 1_700_000_001), ports)).creditsTaken).toBe(CREDITS);
    expect(ledger.balance(sub)).toBe(0);
  });

  it('takes everything for a dispute, once, and leaves a closed dispute closed', async () => {
    const { ports, purchases } = paidPurchaseWorld();
    const dispute = { kind: 'dispute', disputeId: 'dp_1' } as const;
    expect((await reversePurchase(pi, dispute, ports)).creditsTaken).toBe(CREDITS);
    expect(purchases.purchase(sub, session)).toMatchObject({
      status: 'disputed',
      disputeStatus: 'open',
      disputeId: 'dp_1',
    });
    expect((await reversePurchase(pi, dispute, ports)).creditsTaken).toBe(0);
    purchases.seedPurchase(sub, {
      ...purchases.purchase(sub, session)!,
      disputeStatus: 'won',
      creditsReversed: 0,
    });
    expect(await reversePurchase(pi, dispute, ports)).toMatchObject({ creditsTaken: 0, creditsReversed: 0 });
  });

  it('takes what the balance has and flags the account for the rest when the credits were spent', async () => {
    const { ports, ledger } = paidPurchaseWorld(15);
    expect(await reversePurchase(pi, refund(AMOUNT), ports)).toMatchObject({
      creditsTaken: 15,
      shortfall: 25,
    });
    expect(ledger.users.get(sub)).toMatchObject({
      credits: 0,
      creditsOwed: 25,
      flagReason: 'reversal-exceeds-balance',
    });
    expect(ledger.ledgerSum(sub)).toBe(0);
  });

  it('flags the whole reversal as owed when the balance is already 0, moving the purchase all the same', async () => {
    const { ports, ledger, purchases } = paidPurchaseWorld(0);
    expect(await reversePurchase(pi, refund(AMOUNT), ports)).toMatchObject({
      creditsTaken: 0,
      shortfall: CREDITS,
    });
    expect(ledger.users.get(sub)?.creditsOwed).toBe(CREDITS);
    expect(ledger.entriesOf(sub, 'reversal')).toHaveLength(0);
    expect(purchases.purchase(sub, session)?.creditsReversed).toBe(CREDITS);
  });

  it('throws PurchaseNotFoundError for a payment not fulfilled here (yet): Stripe delivers it again', async () => {
    const { ports, purchases } = paidPurchaseWorld();
    await expect(reversePurchase('pi_unknown', refund(AMOUNT), ports)).rejects.toBeInstanceOf(
      PurchaseNotFoundError,
    );
    purchases.paymentIntents.set('pi_orphan', { sub, checkoutSessionId: 'cs_test_missing' });
    await expect(reversePurchase('pi_orphan', refund(AMOUNT), ports)).rejects.toBeInstanceOf(
      PurchaseNotFoundError,
    );
  });

  it('reads again when another event moved the purchase between its read and its write', async () => {
    const world = paidPurchaseWorld();
    let reads = 0;
    const ports = {
      ...world.ports,
      // The first read sees 0 reversed; a concurrent event reverses 12 before this one writes.
      getPurchase: async (s: AccountRef, id: string) => {
        const purchase = await world.purchases.getPurchase(s, id);
        if (++reads === 1) await reversePurchase(pi, refund(1000), world.ports);
        return purchase;
      },
    };
    expect(await reversePurchase(pi, refund(AMOUNT), ports)).toMatchObject({ creditsTaken: CREDITS - 12 });
    expect(reads).toBe(2);
    expect(world.ledger.balance(sub)).toBe(0);
  });

  it('retries a write that lost a race, and gives up after 8 tries', async () => {
    const lost = new CreditChangeGuardError(0, undefined);
    const { ledger, ports } = paidPurchaseWorld();
    const once = { ...ports, reverseCredits: failingFirst(1, lost, ledger.reverseCredits) };
    expect((await reversePurchase(pi, refund(AMOUNT), once)).creditsTaken).toBe(CREDITS);
    const always = paidPurchaseWorld(CREDITS, { reverseCredits: failing(new PurchaseChangedError()) });
    await expect(reversePurchase(pi, refund(AMOUNT), always.ports)).rejects.toBeInstanceOf(
      PurchaseChangedError,
    );
    expect(always.ledger.balance(sub)).toBe(CREDITS);
  });

  it('lets any other failure through at once, changing nothing', async () => {
    const down = new Error('table down');
    const { ports, ledger, purchases } = paidPurchaseWorld(CREDITS, { reverseCredits: failing(down) });
    await expect(reversePurchase(pi, refund(AMOUNT), ports)).rejects.toBe(down);
    expect(ledger.balance(sub)).toBe(CREDITS);
    expect(purchases.purchase(sub, session)?.creditsReversed).toBe(0);
  });
});
