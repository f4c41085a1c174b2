/**
 * How many of a purchase's credits a refund or dispute takes back (docs/architecture.md §8 "Money": refunds and
 * disputes write `reversal` ledger entries). Pure, so replays and out-of-order events are decided here.
 */

/** A payment reversal as Stripe reports it. */
export type PaymentReversal =
  /**
   * `charge.refunded`: `amountRefunded` is cumulative (cents), of `amount` charged; `at` is the event's `created`
   * (epoch seconds), so a delivery no newer than a refund's failure cannot take its credits again.
   */
  | { kind: 'refund'; amount: number; amountRefunded: number; at?: number }
  /** `charge.dispute.created`: the whole purchase is taken back while the bank decides. */
  | { kind: 'dispute'; disputeId?: string };

/** Where a purchase's dispute stands: `open` while the bank decides, then `won` or `lost`. */
export type DisputeStatus = 'open' | 'won' | 'lost';

/**
 * The end of a dispute from Stripe's `charge.dispute.closed` status (https://docs.stripe.com/api/disputes/object#dispute_object-status):
 * `won` — the funds were reinstated — and `warning_closed` — an inquiry closed without becoming a chargeback — give
 * the credits back; `lost` keeps them reversed; any other status is not an end (`undefined`).
 */
export function disputeOutcome(status: unknown): Exclude<DisputeStatus, 'open'> | undefined {
  if (status === 'won' || status === 'warning_closed') return 'won';
  if (status === 'lost') return 'lost';
  return undefined;
}

/**
 * The credits of a purchase that should stay reversed in its current state: all of them while a dispute is open or
 * after it was lost, else the share of the charge refunded ({@link reversalTarget}; cents `amountRefunded` of
 * `amount`). A won dispute or a failed refund lowers this, and the difference is given back.
 */
export function creditsHeldBack(
  credits: number,
  state: { amount: number; amountRefunded: number; dispute?: DisputeStatus },
): number {
  if (state.dispute === 'open' || state.dispute === 'lost') return credits;
  if (state.amountRefunded <= 0) return 0;
  return reversalTarget(credits, {
    kind: 'refund',
    amount: state.amount,
    amountRefunded: state.amountRefunded,
  });
}

/**
 * The credits that should have been taken back once this reversal is applied: all of them for a dispute or a full
 * refund, the refunded share (rounded up, so a refund never leaves paid-for credits behind) for a partial refund.
 * Because Stripe's `amount_refunded` is cumulative, a replayed or older event gives a target no higher than what was
 * already reversed, and so changes nothing.
 *
 * @param credits the purchase's credits
 */
export function reversalTarget(credits: number, reversal: PaymentReversal): number {
  if (reversal.kind === 'dispute') return credits;
  if (reversal.amount <= 0 || reversal.amountRefunded >= reversal.amount) return credits;
  if (reversal.amountRefunded <= 0) return 0;
  return Math.min(credits, Math.ceil((credits * reversal.amountRefunded) / reversal.amount));
}

/** The purchase's payment was refunded or disputed, but no purchase of ours is known for it (yet). */
export class PurchaseNotFoundError extends Error {
  override readonly name = 'PurchaseNotFoundError';
  constructor(readonly paymentIntentId: string) {
    super(`No fulfilled purchase for payment intent ${paymentIntentId}`);
  }
}
