import {
  CreditChangeGuardError,
  readAccountBalance,
  reverseCredits,
  type ProfileGuard,
} from '../adapters/ledger';
import { findPaymentIntent, getPurchase } from '../adapters/purchases';
import {
  flagUncoveredReversal,
  PurchaseChangedError,
  purchaseReversalUpdate,
  shortfallFlag,
  writePurchaseState,
} from '../adapters/reversals';
import { countMetric } from '../common/metrics';
import { callerHash } from '../common/caller-hash';
import { logger } from '../common/logger';
import { InsufficientCreditsError } from '../domain/credits';
import { accountLabel, purchaseAccount } from '../domain/ledger-account';
import { PurchaseNotFoundError, reversalTarget, type PaymentReversal } from '../domain/reversals';

/**
 * What a reversal needs from the outside world: the payment's purchase, the balance of the ledger it filled (a
 * customer's or a team's: domain/ledger-account.ts), and the writes that move both (the purchase's update travels in
 * the ledger's transaction as one of its `extraItems`).
 */
export interface ReversePurchasePorts {
  findPaymentIntent: typeof findPaymentIntent;
  getPurchase: typeof getPurchase;
  readAccountBalance: typeof readAccountBalance;
  reverseCredits: typeof reverseCredits;
  /** The purchase's move from the credits reversed read to the new target (pure: builds the item). */
  purchaseReversalUpdate: typeof purchaseReversalUpdate;
  /** The account's flag for what the balance could not cover (pure: builds the guard). */
  shortfallFlag: (owed: number) => ProfileGuard;
  writePurchaseState: typeof writePurchaseState;
  flagUncoveredReversal: typeof flagUncoveredReversal;
}

const adapters: ReversePurchasePorts = {
  findPaymentIntent,
  getPurchase,
  readAccountBalance,
  reverseCredits,
  purchaseReversalUpdate,
  shortfallFlag,
  writePurchaseState,
  flagUncoveredReversal,
};

/** Tries of one reversal before a write that keeps losing races is let through (the webhook answers 500). */
const ATTEMPTS = 8;

/** What {@link reversePurchase} did. */
export interface ReversalResult {
  checkoutSessionId: string;
  /** Credits taken from the balance by this call (0 on a replay or an older event). */
  creditsTaken: number;
  /** Credits this call should have taken but the balance no longer had: the account was flagged for them. */
  shortfall: number;
  /** The purchase's credits reversed so far, this call included. */
  creditsReversed: number;
}

/** Whether a write lost a race with another change of the same balance or purchase (read again and retry). */
function lostRace(error: unknown): boolean {
  return (
    error instanceof CreditChangeGuardError ||
    error instanceof InsufficientCreditsError ||
    error instanceof PurchaseChangedError
  );
}

/**
 * Takes back the credits of the purchase paid by `paymentIntentId` after a refund or dispute (docs/architecture.md
 * §2) from the ledger it filled — the buyer's, or a team's for a seat purchase (docs/teams.md "Money": the unused
 * seats' credits) — in ONE transaction: the balance (never below 0), a `reversal` ledger entry (ref
 * `<sessionId>#reversed-<target>`, so a replay applies nothing), and the purchase's `creditsReversed` moved from what
 * was read to the new target (so concurrent events cannot both apply). When the balance no longer covers the
 * reversal, what is left is taken and the account is flagged (`flaggedAt`, `flagReason`, `creditsOwed`) for a person
 * to look at.
 *
 * @throws {PurchaseNotFoundError} when no fulfilled purchase is known for the payment intent (the webhook answers
 *   non-2xx, so Stripe delivers the event again after fulfilment); the last lost race's error after
 *   {@link ATTEMPTS} tries
 */
export async function reversePurchase(
  paymentIntentId: string,
  reversal: PaymentReversal,
  ports: ReversePurchasePorts = adapters,
): Promise<ReversalResult> {
  const lookup = await ports.findPaymentIntent(paymentIntentId);
  if (!lookup) throw new PurchaseNotFoundError(paymentIntentId);
  const { checkoutSessionId } = lookup;
  const account = purchaseAccount(lookup);
  const status = reversal.kind === 'dispute' ? 'disputed' : 'refunded';
  for (let attempt = 1; ; attempt++) {
    const purchase = await ports.getPurchase(account, checkoutSessionId);
    if (!purchase) throw new PurchaseNotFoundError(paymentIntentId);
    const prev = purchase.creditsReversed;
    const unchanged = { checkoutSessionId, creditsTaken: 0, shortfall: 0, creditsReversed: prev };
    // A delivery no newer than a refund's failure (its amount_refunded may still count the failed refund), or of a
    // dispute that already ended, must not take credits again. Event times are whole seconds: a genuinely new refund
    // in the very second a refund failed is the price of never re-taking a failed one.
    if (reversal.kind === 'refund' && (reversal.at ?? Infinity) <= purchase.refundsAsOf) return unchanged;
    if (
      reversal.kind === 'dispute' &&
      reversal.disputeId !== undefined &&
      purchase.disputeId === reversal.disputeId &&
      purchase.disputeStatus !== 'open'
    )
      return unchanged;
    const target = Math.max(prev, reversalTarget(purchase.credits, reversal));
    const state =
      reversal.kind === 'refund'
        ? { amountRefunded: Math.max(purchase.amountRefunded, reversal.amountRefunded) }
        : {
            disputeStatus: 'open' as const,
            ...(reversal.disputeId ? { disputeId: reversal.disputeId } : {}),
          };
    const due = target - prev;
    const stateChanged =
      reversal.kind === 'refund'
        ? reversal.amountRefunded > purchase.amountRefunded
        : purchase.disputeStatus !== 'open';
    if (due === 0 && !stateChanged) return unchanged;
    const balance = (await ports.readAccountBalance(account))?.balance ?? 0;
    const take = Math.min(due, balance);
    const shortfall = due - take;
    const update = ports.purchaseReversalUpdate(account, checkoutSessionId, prev, target, status, state);
    try {
      if (due === 0) {
        await ports.writePurchaseState(update);
      } else if (take > 0) {
        await ports.reverseCredits({
          account,
          amount: take,
          ref: `${checkoutSessionId}#reversed-${target}`,
          extraItems: [update],
          ...(shortfall > 0 ? { profileGuard: ports.shortfallFlag(shortfall) } : {}),
        });
      } else {
        await ports.flagUncoveredReversal(account, update, shortfall);
      }
    } catch (error) {
      if (!lostRace(error) || attempt >= ATTEMPTS) throw error;
      continue;
    }
    if (shortfall > 0) {
      logger.error('Reversal larger than the balance left: account flagged', {
        caller: callerHash(account.kind === 'user' ? account.sub : accountLabel(account)),
        checkoutSessionId,
        shortfall,
      });
      countMetric('ReversalShortfalls');
    }
    logger.info('Purchase reversed', { checkoutSessionId, kind: reversal.kind, creditsTaken: take, target });
    return { checkoutSessionId, creditsTaken: take, shortfall, creditsReversed: target };
  }
}
