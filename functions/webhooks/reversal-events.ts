import type Stripe from 'stripe';
import { restorePurchase, type Restoration } from '../use-cases/restore-purchase';
import { reversePurchase } from '../use-cases/reverse-purchase';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import { PurchaseNotFoundError, type PaymentReversal } from '../domain/reversals';

/**
 * The Stripe events that take a purchase's credits back or give them back (docs/architecture.md §2). Register all
 * of them on the webhook endpoint: `charge.refunded`, `charge.dispute.created`, `charge.dispute.closed` (a Dispute
 * with its final `status`), and a refund's failure — `charge.refund.updated` and, since API version 2024-10-28, also
 * `refund.failed`, both carrying the Refund with `status: 'failed'` (https://docs.stripe.com/api/events/types; the
 * second delivery of one failure changes nothing).
 */
export const REVERSAL_EVENTS = new Set([
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
  'charge.refund.updated',
  'refund.failed',
]);

/** The events that may give credits back, and what they say; `undefined` for one that gives nothing back. */
function restorationOf(type: string, object: Record<string, unknown>, at: number): Restoration | undefined {
  if (type === 'charge.dispute.closed' && typeof object.id === 'string')
    return { kind: 'dispute-closed', disputeId: object.id, status: String(object.status) };
  if ((type === 'charge.refund.updated' || type === 'refund.failed') && object.status === 'failed') {
    if (typeof object.id !== 'string') return undefined;
    return { kind: 'refund-failed', refundId: object.id, amount: Number(object.amount ?? 0), at };
  }
  return undefined;
}

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
  event: Pick<Stripe.Event, 'id' | 'type'> & { created?: number; data?: { object?: unknown } },
) {
  const object = (event.data?.object ?? {}) as Record<string, unknown>;
  const paymentIntentId = idOf(object.payment_intent);
  if (!paymentIntentId) {
    logger.warn('Reversal event without a payment intent', { eventId: event.id, type: event.type });
    return { received: true, ignored: true };
  }
  const at = Number(event.created ?? 0);
  if (!['charge.refunded', 'charge.dispute.created'].includes(event.type)) {
    const restoration = restorationOf(event.type, object, at);
    if (!restoration) return { received: true, ignored: true };
    return withPurchase(event, paymentIntentId, async () => {
      const result = await restorePurchase(paymentIntentId, restoration, event.id);
      logger.info('Restoration webhook handled', { eventId: event.id, type: event.type, ...result });
      return { received: true, creditsRestored: result.creditsRestored };
    });
  }
  const reversal: PaymentReversal =
    event.type === 'charge.dispute.created'
      ? { kind: 'dispute', ...(typeof object.id === 'string' ? { disputeId: object.id } : {}) }
      : {
          kind: 'refund',
          amount: Number(object.amount ?? 0),
          amountRefunded: Number(object.amount_refunded ?? 0),
          ...(at > 0 ? { at } : {}),
        };
  if (reversal.kind === 'dispute') countMetric('DisputesCreated');
  return withPurchase(event, paymentIntentId, async () => {
    const result = await reversePurchase(paymentIntentId, reversal);
    if (reversal.kind === 'refund' && result.creditsTaken + result.shortfall > 0)
      countMetric('PurchasesRefunded');
    logger.info('Reversal webhook handled', { eventId: event.id, type: event.type, ...result });
    return { received: true, creditsReversed: result.creditsTaken };
  });
}

/** Runs `work`, logging (and rethrowing) the 409 of a payment not fulfilled here yet: Stripe delivers it again. */
async function withPurchase<T>(
  event: Pick<Stripe.Event, 'id' | 'type'>,
  paymentIntentId: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
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
