/**
 * How many of a purchase's credits a refund or dispute takes back (docs/architecture.md §8 "Money": refunds and
 * disputes write `reversal` ledger entries). Pure, so replays and out-of-order events are decided here.
 */

/** A payment reversal as Stripe reports it. */
export type PaymentReversal =
  /** `charge.refunded`: `amountRefunded` is cumulative (cents), of `amount` charged. */
  | { kind: 'refund'; amount: number; amountRefunded: number }
  /** `charge.dispute.created`: the whole purchase is taken back while the bank decides. */
  | { kind: 'dispute' };

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
