import { describe, expect, it } from 'vitest';
import { PurchaseChangedError } from '../../../functions/adapters/reversals';
import { PurchaseNotFoundError } from '../../../functions/domain/reversals';
import { restorePurchase, type RestorePurchasePorts } from '../../../functions/use-cases/restore-purchase';
import { reversePurchase } from '../../../functions/use-cases/reverse-purchase';
import { failing, failingFirst } from './fakes/failures';
import { PAID_PURCHASE, paidPurchaseWorld } from './fakes/paid-purchase';

const { sub, session, pi, credits: CREDITS, amount: AMOUNT } = PAID_PURCHASE;

/** A purchase of 40 credits whose payment was disputed (`dp_1`) or refunded (`amountRefunded` cents), reversed. */
async function reversed(
  how: { dispute: true } | { amountRefunded: number },
  overrides: Partial<RestorePurchasePorts> = {},
) {
  const world = paidPurchaseWorld();
  await reversePurchase(
    pi,
    'dispute' in how
      ? { kind: 'dispute', disputeId: 'dp_1' }
      : { kind: 'refund', amount: AMOUNT, amountRefunded: how.amountRefunded, at: 1000 },
    world.ports,
  );
  return { ...world, ports: { ...world.ports, ...overrides } };
}

const closed = (status: string, disputeId = 'dp_1') =>
  ({ kind: 'dispute-closed', disputeId, status }) as const;
const refundFailed = (refundId: string, amount: number, at = 2000) =>
  ({ kind: 'refund-failed', refundId, amount, at }) as const;

describe('restorePurchase: reversed credits come back when their reason goes away', () => {
  it('gives every credit back when the dispute is won, once, and completes the purchase', async () => {
    const { ports, ledger, purchases } = await reversed({ dispute: true });
    expect(await restorePurchase(pi, closed('won'), 'evt_1', ports)).toEqual({
      checkoutSessionId: session,
      creditsRestored: CREDITS,
      creditsReversed: 0,
    });
    expect(purchases.purchase(sub, session)).toMatchObject({ status: 'completed', disputeStatus: 'won' });
    expect(ledger.entriesOf(sub, 'reversal_restored').map((e) => e.delta)).toEqual([CREDITS]);
    expect((await restorePurchase(pi, closed('won'), 'evt_2', ports)).creditsRestored).toBe(0);
    expect(ledger.balance(sub)).toBe(CREDITS);
    expect(ledger.ledgerSum(sub)).toBe(CREDITS);
  });

  it('treats an inquiry closed without a chargeback (warning_closed) like a won dispute', async () => {
    const { ports, ledger } = await reversed({ dispute: true });
    expect((await restorePurchase(pi, closed('warning_closed'), 'evt_1', ports)).creditsRestored).toBe(
      CREDITS,
    );
    expect(ledger.balance(sub)).toBe(CREDITS);
  });

  it('records a lost dispute’s end without credits, and a closed dispute stays closed', async () => {
    const { ports, ledger, purchases } = await reversed({ dispute: true });
    expect(await restorePurchase(pi, closed('lost'), 'evt_1', ports)).toMatchObject({
      creditsRestored: 0,
      creditsReversed: CREDITS,
    });
    expect(purchases.purchase(sub, session)?.disputeStatus).toBe('lost');
    expect((await restorePurchase(pi, closed('won'), 'evt_2', ports)).creditsRestored).toBe(0);
    expect(ledger.balance(sub)).toBe(0);
  });

  it('ignores the close of another dispute than the one reversed, and a status that is not an end', async () => {
    const { ports, ledger } = await reversed({ dispute: true });
    expect((await restorePurchase(pi, closed('won', 'dp_other'), 'evt_1', ports)).creditsRestored).toBe(0);
    expect((await restorePurchase(pi, closed('under_review'), 'evt_2', ports)).creditsRestored).toBe(0);
    expect(ledger.balance(sub)).toBe(0);
  });

  it('gives a failed refund’s credits back once per refund id, and records it', async () => {
    const { ports, ledger, purchases } = await reversed({ amountRefunded: AMOUNT });
    expect((await restorePurchase(pi, refundFailed('re_1', AMOUNT), 'evt_1', ports)).creditsRestored).toBe(
      CREDITS,
    );
    expect(purchases.purchase(sub, session)).toMatchObject({
      status: 'completed',
      amountRefunded: 0,
      refundsAsOf: 2000,
      failedRefunds: ['re_1'],
    });
    expect((await restorePurchase(pi, refundFailed('re_1', AMOUNT), 'evt_2', ports)).creditsRestored).toBe(0);
    expect(ledger.balance(sub)).toBe(CREDITS);
  });

  it('gives back only the failed refund’s share when other refunds stand', async () => {
    // 2000 of 3500 refunded (23 credits reversed); the refund of 1000 of them fails: 12 credits stay reversed.
    const { ports, purchases } = await reversed({ amountRefunded: 2000 });
    expect(purchases.purchase(sub, session)?.creditsReversed).toBe(23);
    expect(await restorePurchase(pi, refundFailed('re_2', 1000), 'evt_1', ports)).toMatchObject({
      creditsRestored: 11,
      creditsReversed: 12,
    });
    expect(purchases.purchase(sub, session)?.status).toBe('refunded');
  });

  it('pays what the account owes first, with a debt_settlement entry', async () => {
    const { ports, ledger } = await reversed({ dispute: true });
    ledger.users.get(sub)!.creditsOwed = 15;
    expect((await restorePurchase(pi, closed('won'), 'evt_1', ports)).creditsRestored).toBe(CREDITS);
    expect(ledger.users.get(sub)).toMatchObject({ credits: CREDITS - 15, creditsOwed: 0 });
    expect(ledger.entriesOf(sub, 'debt_settlement').map((e) => e.delta)).toEqual([-15]);
  });

  it('throws PurchaseNotFoundError for a payment not fulfilled here', async () => {
    const { ports } = await reversed({ dispute: true });
    await expect(restorePurchase('pi_unknown', closed('won'), 'evt_1', ports)).rejects.toBeInstanceOf(
      PurchaseNotFoundError,
    );
  });

  it('retries a write that lost a race, and gives up after 8 tries', async () => {
    const world = await reversed({ dispute: true });
    const once = {
      ...world.ports,
      restoreCredits: failingFirst(1, new PurchaseChangedError(), world.ledger.restoreCredits),
    };
    expect((await restorePurchase(pi, closed('won'), 'evt_1', once)).creditsRestored).toBe(CREDITS);
    const always = await reversed(
      { dispute: true },
      { writePurchaseState: failing(new PurchaseChangedError()) },
    );
    await expect(restorePurchase(pi, closed('lost'), 'evt_1', always.ports)).rejects.toBeInstanceOf(
      PurchaseChangedError,
    );
  });

  it('lets any other failure through at once, giving nothing back', async () => {
    const down = new Error('table down');
    const { ports, ledger } = await reversed({ dispute: true }, { restoreCredits: failing(down) });
    await expect(restorePurchase(pi, closed('won'), 'evt_1', ports)).rejects.toBe(down);
    expect(ledger.balance(sub)).toBe(0);
  });
});
