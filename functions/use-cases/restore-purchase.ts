import { CreditChangeGuardError, restoreCredits } from '../adapters/ledger';
import { findPaymentIntent, getPurchase, type PurchaseRecord } from '../adapters/purchases';
import {
  PurchaseChangedError,
  purchaseReversalUpdate,
  writePurchaseState,
  type PurchaseStateChange,
} from '../adapters/reversals';
import { logger } from '../common/logger';
import { purchaseAccount } from '../domain/ledger-account';
import { creditsHeldBack, disputeOutcome, PurchaseNotFoundError } from '../domain/reversals';

/**
 * What a restoration needs from the outside world: the payment's purchase and the writes that move it (with the
 * credits given back, in the ledger's transaction).
 */
export interface RestorePurchasePorts {
  findPaymentIntent: typeof findPaymentIntent;
  getPurchase: typeof getPurchase;
  restoreCredits: typeof restoreCredits;
  /** The purchase's move from the credits reversed read to the new target (pure: builds the item). */
  purchaseReversalUpdate: typeof purchaseReversalUpdate;
  writePurchaseState: typeof writePurchaseState;
}

const adapters: RestorePurchasePorts = {
  findPaymentIntent,
  getPurchase,
  restoreCredits,
  purchaseReversalUpdate,
  writePurchaseState,
};

/** Tries of one restoration before a write that keeps losing races is let through (the webhook answers 500). */
const ATTEMPTS = 8;

/** Why reversed credits may come back, as Stripe reports it. */
export type Restoration =
  /** `charge.dispute.closed`: the Dispute's id and final `status` (`won`, `warning_closed`, `lost`). */
  | { kind: 'dispute-closed'; disputeId: string; status: string }
  /** `charge.refund.updated` / `refund.failed` with `status: 'failed'`: the Refund's id and amount (cents). */
  | { kind: 'refund-failed'; refundId: string; amount: number; at: number };

/** What {@link restorePurchase} did. */
export interface RestorationResult {
  checkoutSessionId: string;
  /** Credits given back by this call (before what the account owed was paid from them). */
  creditsRestored: number;
  /** The purchase's credits still reversed afterwards. */
  creditsReversed: number;
}

/** The purchase's state after the restoration, or `undefined` when it changes nothing (a replay, another status). */
function nextState(purchase: PurchaseRecord, restoration: Restoration): PurchaseStateChange | undefined {
  if (restoration.kind === 'refund-failed') {
    if (purchase.failedRefunds.includes(restoration.refundId)) return undefined;
    return {
      amountRefunded: Math.max(0, purchase.amountRefunded - restoration.amount),
      refundsAsOf: Math.max(purchase.refundsAsOf, restoration.at),
      failedRefund: restoration.refundId,
    };
  }
  const outcome = disputeOutcome(restoration.status);
  // Only a dispute we reversed for, and only once: a closed one stays closed.
  if (!outcome || purchase.disputeStatus !== 'open') return undefined;
  if (purchase.disputeId !== undefined && purchase.disputeId !== restoration.disputeId) return undefined;
  return { disputeStatus: outcome, disputeId: restoration.disputeId };
}

/**
 * Gives back the credits a reversal took when its reason went away (docs/architecture.md §2): a dispute closed in
 * our favour (`won`, or an inquiry's `warning_closed`) or a refund that failed (Stripe returned the money to our
 * balance: https://docs.stripe.com/refunds#failed-refunds). In ONE transaction: the purchase moves from the credits
 * reversed that were read to what its new state holds back ({@link creditsHeldBack}), and the difference is granted
 * with a `reversal_restored` ledger entry — which first pays what the account owes (`creditsOwed`), so credits a
 * reversal could not take are not given back twice. Replays change nothing (a failed refund is given back once, a
 * closed dispute stays closed); a lost dispute only records its end.
 *
 * @param eventId the Stripe event's id: part of the ledger entry's idempotency reference
 * @throws {PurchaseNotFoundError} when no fulfilled purchase is known for the payment intent (answered 409, so
 *   Stripe delivers the event again); the last lost race's error after {@link ATTEMPTS} tries
 */
export async function restorePurchase(
  paymentIntentId: string,
  restoration: Restoration,
  eventId: string,
  ports: RestorePurchasePorts = adapters,
): Promise<RestorationResult> {
  const lookup = await ports.findPaymentIntent(paymentIntentId);
  if (!lookup) throw new PurchaseNotFoundError(paymentIntentId);
  const { checkoutSessionId } = lookup;
  // The ledger the purchase filled: the buyer's, or a team's for a seat purchase (docs/teams.md "Money").
  const account = purchaseAccount(lookup);
  for (let attempt = 1; ; attempt++) {
    const purchase = await ports.getPurchase(account, checkoutSessionId);
    if (!purchase) throw new PurchaseNotFoundError(paymentIntentId);
    const prev = purchase.creditsReversed;
    const state = nextState(purchase, restoration);
    if (!state) return { checkoutSessionId, creditsRestored: 0, creditsReversed: prev };
    const held = creditsHeldBack(purchase.credits, {
      amount: purchase.amountTotal,
      amountRefunded: state.amountRefunded ?? purchase.amountRefunded,
      dispute: state.disputeStatus ?? purchase.disputeStatus,
    });
    const target = Math.min(prev, held);
    const give = prev - target;
    const status = target === 0 ? 'completed' : purchase.status;
    const update = ports.purchaseReversalUpdate(account, checkoutSessionId, prev, target, status, state);
    try {
      if (give > 0) {
        await ports.restoreCredits({
          account,
          amount: give,
          ref: `${checkoutSessionId}#restored-${eventId}`,
          extraItems: [update],
        });
      } else {
        await ports.writePurchaseState(update);
      }
    } catch (error) {
      const lost = error instanceof CreditChangeGuardError || error instanceof PurchaseChangedError;
      if (!lost || attempt >= ATTEMPTS) throw error;
      continue;
    }
    logger.info('Reversed credits given back', { checkoutSessionId, kind: restoration.kind, give, target });
    return { checkoutSessionId, creditsRestored: give, creditsReversed: target };
  }
}
