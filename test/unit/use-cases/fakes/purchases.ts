import type { ProfileGuard } from '../../../../functions/adapters/ledger';
import {
  purchaseItem,
  purchaseRecordOf,
  type PurchaseRecord,
} from '../../../../functions/adapters/purchases';
import { PurchaseChangedError, type purchaseReversalUpdate } from '../../../../functions/adapters/reversals';
import { purchaseSk, userPk } from '../../../../functions/adapters/support/keys';
import type { ExpectedPurchase } from '../../../../functions/domain/checkout';
import type { FakeLedger, Item } from './ledger';
import { commitEffects, effectItem, type TransactItem } from './transactions';

/**
 * In-memory purchases (adapters/purchases.ts) and their reversals' writes (adapters/reversals.ts), over a
 * {@link FakeLedger}: a purchase item is put by the ledger's grant (its `related` item), so it exists exactly when
 * the credits were granted, and the reversal's update and flag commit in the ledger's transaction. The item-building
 * functions are the real, pure ones where they need no table (`purchaseItem`, `purchaseRecordOf`).
 */
export class FakePurchases {
  readonly pending = new Map<string, ExpectedPurchase>();
  readonly paymentIntents = new Map<string, { sub: string; checkoutSessionId: string }>();

  constructor(private readonly ledger: FakeLedger) {}

  /** A fulfilled purchase as fulfilment writes it, with its payment intent's lookup, without crediting anything. */
  seedPurchase(
    sub: string,
    purchase: Partial<PurchaseRecord> & { checkoutSessionId: string },
  ): PurchaseRecord {
    const item: Item = {
      ...purchaseItem(sub, {
        packId: 'starter',
        credits: 10,
        amountTotal: 1000,
        currency: 'usd',
        paymentIntentId: undefined,
        receiptUrl: null,
        ...purchase,
      }),
      ...purchase,
    };
    this.ledger.items.set(this.key(sub, purchase.checkoutSessionId), item);
    if (typeof item.paymentIntentId === 'string')
      this.paymentIntents.set(item.paymentIntentId, { sub, checkoutSessionId: purchase.checkoutSessionId });
    return purchaseRecordOf(purchase.checkoutSessionId, item);
  }

  /** The purchase as stored now (`undefined` when none). */
  purchase(sub: string, checkoutSessionId: string): PurchaseRecord | undefined {
    const item = this.ledger.items.get(this.key(sub, checkoutSessionId));
    return item ? purchaseRecordOf(checkoutSessionId, item) : undefined;
  }

  readonly putPendingPurchase = async (
    sub: string,
    checkoutSessionId: string,
    expected: ExpectedPurchase,
  ) => {
    this.pending.set(`${sub}|${checkoutSessionId}`, { ...expected });
  };

  readonly getPendingPurchase = async (sub: string, checkoutSessionId: string) => {
    const expected = this.pending.get(`${sub}|${checkoutSessionId}`);
    return expected ? { ...expected } : undefined;
  };

  readonly purchaseItem = purchaseItem;

  readonly paymentIntentLookupPut = (
    paymentIntentId: string,
    sub: string,
    checkoutSessionId: string,
  ): TransactItem =>
    effectItem({
      check: () => {
        const known = this.paymentIntents.get(paymentIntentId);
        return !known || known.checkoutSessionId === checkoutSessionId;
      },
      apply: () => this.paymentIntents.set(paymentIntentId, { sub, checkoutSessionId }),
    });

  readonly findPaymentIntent = async (paymentIntentId: string) => {
    const found = this.paymentIntents.get(paymentIntentId);
    return found ? { ...found } : undefined;
  };

  readonly getPurchase = async (sub: string, checkoutSessionId: string) =>
    this.purchase(sub, checkoutSessionId);

  readonly readAllPurchases = async (sub: string): Promise<PurchaseRecord[]> =>
    [...this.ledger.items.entries()]
      .filter(([key]) => key.startsWith(`${userPk(sub)}|${purchaseSk('')}`))
      .map(([, item]) => purchaseRecordOf(String(item.SK).slice(purchaseSk('').length), item));

  /** adapters/reversals.ts: moves `creditsReversed` from `prev` to `target`, only if nobody moved it meanwhile. */
  readonly purchaseReversalUpdate: typeof purchaseReversalUpdate = (
    sub,
    sessionId,
    prev,
    target,
    status,
    change = {},
  ) => {
    const key = this.key(sub, sessionId);
    const { failedRefund, ...fields } = change;
    return effectItem({
      check: () => {
        const item = this.ledger.items.get(key);
        if (!item || Number(item.creditsReversed ?? 0) !== prev) return false;
        return (
          !failedRefund || !((item.failedRefunds as Set<string> | undefined)?.has(failedRefund) ?? false)
        );
      },
      apply: () => {
        const item = this.ledger.items.get(key)!;
        Object.assign(item, { creditsReversed: target, status });
        for (const [name, value] of Object.entries(fields)) if (value !== undefined) item[name] = value;
        if (failedRefund)
          item.failedRefunds = new Set([...((item.failedRefunds as Set<string>) ?? []), failedRefund]);
      },
    });
  };

  readonly writePurchaseState = async (update: TransactItem) => {
    if (commitEffects([update]) >= 0) throw new PurchaseChangedError();
  };

  /** adapters/reversals.ts: the flag of a reversal larger than the balance, applied to the changed user. */
  readonly shortfallFlag = (owed: number): ProfileGuard =>
    this.ledger.profileGuard({ check: () => true, apply: (user) => flag(user, owed) });

  readonly flagUncoveredReversal = async (sub: string, update: TransactItem, owed: number) => {
    const user = this.ledger.users.get(sub);
    if (!user || user.credits !== 0) throw new PurchaseChangedError();
    if (commitEffects([update]) >= 0) throw new PurchaseChangedError();
    flag(user, owed);
  };

  private key(sub: string, checkoutSessionId: string) {
    return `${userPk(sub)}|${purchaseSk(checkoutSessionId)}`;
  }
}

function flag(user: { creditsOwed: number; flaggedAt?: string; flagReason?: string }, owed: number) {
  user.creditsOwed += owed;
  user.flaggedAt = '2026-01-01T00:00:00.000Z';
  user.flagReason = 'reversal-exceeds-balance';
}
