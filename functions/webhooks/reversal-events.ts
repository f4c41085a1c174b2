import type Stripe from 'stripe';
import { reversePurchase } from '../use-cases/reverse-purchase';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import { PurchaseNotFoundError, type PaymentReversal } from '../domain/reversals';

/** The Stripe events that take a purchase's credits back. Register both on the webhook endpoint. */
export const REVERSAL_EVENTS = new Set(['charge.refunded', 'charge.dispute.created']);

const idOf = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : undefined;

/**
 * Handles a verified `charge.refunded` (a Charge: `payment_intent`, `amount`, cumulative `amount_refunded`) or
 * `charge.dispute.created` (a Dispute: `payment_intent`) by reversing that purchase's credits (see
 * `reversePurchase`). Replays and events out of order change nothing twice.
 *
 * @returns the webhook's 200 body
 * @throws {PurchaseNotFoundError} (answered 409 `PURCHASE_NOT_FOUND`) when no fulfilled purchase is known for the payment (yet): Stripe
 *   delivers the event again later, by which time fulfilment has run
 */
export async function handleReversalEvent(
  event: Pick<Stripe.Event, 'id' | 'type'> & { data?: { object?: unknown } },
) {
  const object = (event.data?.object ?? {}) as Record<string, unknown>;
  const paymentIntentId = idOf(object.payment_intent);
  if (!paymentIntentId) {
    logger.warn('Reversal event without a payment intent', { eventId: event.id, type: event.type });
    return { received: true, ignored: true };
  }
  const reversal: PaymentReversal =
    event.type === 'charge.dispute.created'
      ? { kind: 'dispute' }
      : {
          kind: 'refund',
          amount: Number(object.amount ?? 0),
          amountRefunded: Number(object.amount_refunded ?? 0),
        };
  if (reversal.kind === 'dispute') countMetric('DisputesCreated');
  try {
    const result = await reversePurchase(paymentIntentId, reversal);
    if (reversal.kind === 'refund' && result.creditsTaken + result.shortfall > 0)
      countMetric('PurchasesRefunded');
    logger.info('Reversal webhook handled', { eventId: event.id, type: event.type, ...result });
    return { received: true, creditsReversed: result.creditsTaken };
  } catch (error) {
    if (!(error instanceof PurchaseNotFoundError)) throw error;
    logger.warn('Reversal for a payment not fulfilled here (yet)', {
      eventId: event.id,
      type: event.type,
      paymentIntentId,
    });
    // Answered 409 PURCHASE_NOT_FOUND (functions/http/errors.ts): Stripe delivers it again later.
    throw error;
  }
}
