import type { ProfileGuard } from '../../../../functions/adapters/ledger';
import {
  purchaseItem,
  purchaseRecordOf,
  type PurchaseRecord,
} from '../../../../functions/adapters/purchases';
import type { PaymentIntentLookup } from '../../../../functions/adapters/purchases';
import { PurchaseChangedError, type purchaseReversalUpdate } from '../../../../functions/adapters/reversals';
import { purchaseSk } from '../../../../functions/adapters/support/keys';
import { accountPk } from '../../../../functions/adapters/support/ledger-items';
import type { ExpectedPurchase } from '../../../../functions/domain/checkout';
import { accountLabel, ledgerAccount, type AccountRef } from '../../../../functions/domain/ledger-account';
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
  readonly paymentIntents = new Map<string, PaymentIntentLookup>();

  constructor(private readonly ledger: FakeLedger) {}

  /**
   * A fulfilled purchase as fulfilment writes it, with its payment intent's lookup, without crediting anything. A
   * team's purchase (`owner` a team account) records `buyer` as its lookup's `sub`.
   */
  seedPurchase(
    owner: AccountRef,
    purchase: Partial<PurchaseRecord> & { checkoutSessionId: string },
    buyer = 'buyer',
  ): PurchaseRecord {
    const item: Item = {
      ...purchaseItem(owner, {
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
    this.ledger.items.set(this.key(owner, purchase.checkoutSessionId), item);
    const account = ledgerAccount(owner);
    if (typeof item.paymentIntentId === 'string')
      this.paymentIntents.set(item.paymentIntentId, {
        checkoutSessionId: purchase.checkoutSessionId,
        ...(account.kind === 'user' ? { sub: account.sub } : { sub: buyer, teamId: account.teamId }),
      });
    return purchaseRecordOf(purchase.checkoutSessionId, item);
  }

  /** The purchase as stored now (`undefined` when none). */
  purchase(owner: AccountRef, checkoutSessionId: string): PurchaseRecord | undefined {
    const item = this.ledger.items.get(this.key(owner, checkoutSessionId));
    return item ? purchaseRecordOf(checkoutSessionId, item) : undefined;
  }

  readonly putPendingPurchase = async (
    owner: AccountRef,
    checkoutSessionId: string,
    expected: ExpectedPurchase,
  ) => {
    this.pending.set(`${pendingKey(owner)}|${checkoutSessionId}`, { ...expected });
  };

  readonly getPendingPurchase = async (owner: AccountRef, checkoutSessionId: string) => {
    const expected = this.pending.get(`${pendingKey(owner)}|${checkoutSessionId}`);
    return expected ? { ...expected } : undefined;
  };

  readonly purchaseItem = purchaseItem;

  readonly paymentIntentLookupPut = (
    paymentIntentId: string,
    sub: string,
    checkoutSessionId: string,
    teamId?: string,
  ): TransactItem =>
    effectItem({
      check: () => {
        const known = this.paymentIntents.get(paymentIntentId);
        return !known || known.checkoutSessionId === checkoutSessionId;
      },
      apply: () =>
        this.paymentIntents.set(paymentIntentId, {
          sub,
          checkoutSessionId,
          ...(teamId === undefined ? {} : { teamId }),
        }),
    });

  readonly findPaymentIntent = async (paymentIntentId: string) => {
    const found = this.paymentIntents.get(paymentIntentId);
    return found ? { ...found } : undefined;
  };

  readonly getPurchase = async (owner: AccountRef, checkoutSessionId: string) =>
    this.purchase(owner, checkoutSessionId);

  readonly readAllPurchases = async (owner: AccountRef): Promise<PurchaseRecord[]> =>
    [...this.ledger.items.entries()]
      .filter(([key]) => key.startsWith(`${accountPk(owner)}|${purchaseSk('')}`))
      .map(([, item]) => purchaseRecordOf(String(item.SK).slice(purchaseSk('').length), item));

  /** adapters/reversals.ts: moves `creditsReversed` from `prev` to `target`, only if nobody moved it meanwhile. */
  readonly purchaseReversalUpdate: typeof purchaseReversalUpdate = (
    owner,
    sessionId,
    prev,
    target,
    status,
    change = {},
  ) => {
    const key = this.key(owner, sessionId);
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

  /** adapters/reversals.ts: the flag of a reversal larger than the balance, applied to the changed account. */
  readonly shortfallFlag = (owed: number): ProfileGuard =>
    this.ledger.profileGuard({ check: () => true, apply: (user) => flag(user, owed) });

  readonly flagUncoveredReversal = async (owner: AccountRef, update: TransactItem, owed: number) => {
    const account = ledgerAccount(owner);
    const head = this.ledger.head(account);
    if (!head || head.balance !== 0) throw new PurchaseChangedError();
    if (commitEffects([update]) >= 0) throw new PurchaseChangedError();
    flag(account.kind === 'user' ? this.ledger.users.get(account.sub)! : head, owed);
  };

  private key(owner: AccountRef, checkoutSessionId: string) {
    return `${accountPk(owner)}|${purchaseSk(checkoutSessionId)}`;
  }
}

/** `pending`'s key of an account: a user's `sub` (as tests set it), a team's `team:<teamId>`. */
function pendingKey(owner: AccountRef): string {
  const account = ledgerAccount(owner);
  return account.kind === 'user' ? account.sub : accountLabel(account);
}

function flag(user: { creditsOwed: number; flaggedAt?: string; flagReason?: string }, owed: number) {
  user.creditsOwed += owed;
  user.flaggedAt = '2026-01-01T00:00:00.000Z';
  user.flagReason = 'reversal-exceeds-balance';
}
