import { stripeId } from './events';
import { StripeStyleError } from './wire';

/*
 * Payments after Checkout in the local provider (docs/architecture.md §5): the Charge behind a paid session, its
 * refunds and disputes, and promotion codes — in Stripe's shapes, so the real webhook code handles
 * `charge.refunded` and `charge.dispute.created` exactly as it would Stripe's.
 */

/** Promotion codes the local hosted page accepts: code → percent off. `FREE100` makes any pack free. */
export const LOCAL_PROMOTION_CODES: Readonly<Record<string, number>> = { FREE100: 100, HALFOFF: 50 };

/** The charge of a paid session, as the provider keeps it. Amounts in the currency's minor unit (cents). */
export interface ChargeState {
  id: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  created: number;
  /** Cumulative, like Stripe's `amount_refunded`. */
  amountRefunded: number;
  /** `status` absent: `succeeded` (sessions saved before refunds could fail). */
  refunds: { id: string; amount: number; created: number; status?: 'succeeded' | 'failed' }[];
  /** `status` absent: `needs_response`. */
  dispute?: { id: string; created: number; status?: 'needs_response' | 'won' | 'lost' };
}

/** A new charge for `amount` cents (what Pay creates). */
export function newCharge(amount: number, currency: string): ChargeState {
  return {
    id: stripeId('ch_'),
    paymentIntentId: stripeId('pi_'),
    amount,
    currency,
    created: Math.floor(Date.now() / 1000),
    amountRefunded: 0,
    refunds: [],
  };
}

/**
 * Applies a promotion code to an open session's amounts, as Checkout does: `amount_total` drops by the discount,
 * `total_details.amount_discount` and `discounts` say why; at 100 % the session will need no payment.
 *
 * @throws {StripeStyleError} 400 for an unknown code, or when the session does not allow promotion codes
 */
export function applyPromotionCode(session: Record<string, unknown>, code: string): void {
  const percent = LOCAL_PROMOTION_CODES[code.trim().toUpperCase()];
  if (percent === undefined) {
    throw new StripeStyleError(400, 'invalid_request_error', 'This code is invalid.', 'promotion_code');
  }
  if (session.allow_promotion_codes !== true) {
    throw new StripeStyleError(400, 'invalid_request_error', 'This session does not accept promotion codes.');
  }
  const subtotal = Number(session.amount_subtotal);
  const discount = Math.round((subtotal * percent) / 100);
  session.amount_total = subtotal - discount;
  session.total_details = { amount_discount: discount, amount_shipping: 0, amount_tax: 0 };
  session.discounts = [{ coupon: null, promotion_code: stripeId('promo_') }];
}

/** The path of a charge's receipt page on the provider's origin (Stripe's is `pay.stripe.com/receipts/…`). */
export const receiptPath = (chargeId: string) => `/receipts/${chargeId}`;

/**
 * The Charge object (`object: 'charge'`) with its refunds, as in `charge.refunded`; `receipt_url` is the receipt
 * page at `pageBase` (https://docs.stripe.com/api/charges/object#charge_object-receipt_url), null without one.
 */
export function chargeObject(
  charge: ChargeState,
  metadata: Record<string, string>,
  pageBase?: string,
): Record<string, unknown> {
  return {
    id: charge.id,
    object: 'charge',
    amount: charge.amount,
    amount_captured: charge.amount,
    amount_refunded: charge.amountRefunded,
    captured: true,
    created: charge.created,
    currency: charge.currency,
    disputed: charge.dispute !== undefined,
    livemode: false,
    metadata,
    paid: true,
    payment_intent: charge.paymentIntentId,
    receipt_url: pageBase ? `${pageBase}${receiptPath(charge.id)}` : null,
    refunded: charge.amountRefunded >= charge.amount,
    refunds: {
      object: 'list',
      data: charge.refunds.map((r) => refundObject(charge, r)),
      has_more: false,
      url: `/v1/charges/${charge.id}/refunds`,
    },
    status: 'succeeded',
  };
}

/** One Refund object (`object: 'refund'`), as `POST /v1/refunds` answers. */
export function refundObject(
  charge: ChargeState,
  refund: ChargeState['refunds'][number],
): Record<string, unknown> {
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    charge: charge.id,
    created: refund.created,
    currency: charge.currency,
    metadata: {},
    payment_intent: charge.paymentIntentId,
    reason: 'requested_by_customer',
    status: refund.status ?? 'succeeded',
    // A failed refund: why, and the balance transaction that put the money back (Stripe's Refund object).
    ...(refund.status === 'failed'
      ? {
          failure_reason: 'expired_or_canceled_card',
          failure_balance_transaction: `txn_${refund.id.slice(3)}`,
        }
      : {}),
  };
}

/**
 * Refunds `amount` cents of a charge (default: what is left), as `POST /v1/refunds` does.
 *
 * @throws {StripeStyleError} 400 when the charge is already fully refunded or `amount` is more than is left
 */
export function refundCharge(charge: ChargeState, amount?: number): ChargeState['refunds'][number] {
  const left = charge.amount - charge.amountRefunded;
  const value = amount ?? left;
  if (left <= 0) {
    throw new StripeStyleError(
      400,
      'invalid_request_error',
      `Charge ${charge.id} has already been refunded.`,
      undefined,
      'charge_already_refunded',
    );
  }
  if (!Number.isSafeInteger(value) || value < 1 || value > left) {
    throw new StripeStyleError(
      400,
      'invalid_request_error',
      `Refund amount (${value}) is greater than unrefunded amount on charge (${left})`,
      'amount',
    );
  }
  const refund = { id: stripeId('re_'), amount: value, created: Math.floor(Date.now() / 1000) };
  charge.amountRefunded += value;
  charge.refunds.push(refund);
  return refund;
}

/** The Dispute object (`object: 'dispute'`) of a charge's dispute, as `charge.dispute.*` events carry it. */
function disputeObject(charge: ChargeState): Record<string, unknown> {
  const dispute = charge.dispute!;
  return {
    id: dispute.id,
    object: 'dispute',
    amount: charge.amount - charge.amountRefunded,
    charge: charge.id,
    created: dispute.created,
    currency: charge.currency,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.paymentIntentId,
    reason: 'fraudulent',
    status: dispute.status ?? 'needs_response',
  };
}

/** Opens a dispute on a charge (what a cardholder's bank does) and returns the Dispute object. */
export function disputeCharge(charge: ChargeState): Record<string, unknown> {
  charge.dispute ??= { id: stripeId('dp_'), created: Math.floor(Date.now() / 1000) };
  return disputeObject(charge);
}

/**
 * Ends a charge's open dispute as the bank decided (`won`: the funds come back; `lost`) and returns the Dispute
 * object `charge.dispute.closed` carries.
 *
 * @throws {StripeStyleError} 400 when the charge has no dispute, or it is already closed
 */
export function closeDispute(charge: ChargeState, outcome: 'won' | 'lost'): Record<string, unknown> {
  if (!charge.dispute || (charge.dispute.status ?? 'needs_response') !== 'needs_response') {
    throw new StripeStyleError(400, 'invalid_request_error', `Charge ${charge.id} has no open dispute.`);
  }
  charge.dispute.status = outcome;
  return disputeObject(charge);
}

/**
 * What the card network does to a refund it cannot deliver (an expired or closed card): the refund (default: the
 * latest one) becomes `failed`, its money goes back to the merchant's balance and no longer counts in the charge's
 * `amount_refunded` (https://docs.stripe.com/refunds#failed-refunds). Returns the failed Refund.
 *
 * @throws {StripeStyleError} 400 when there is no such succeeded refund
 */
export function failRefund(charge: ChargeState, refundId?: string): ChargeState['refunds'][number] {
  const refund = refundId
    ? charge.refunds.find((r) => r.id === refundId)
    : charge.refunds.findLast((r) => (r.status ?? 'succeeded') === 'succeeded');
  if (!refund || (refund.status ?? 'succeeded') !== 'succeeded') {
    throw new StripeStyleError(400, 'invalid_request_error', `No succeeded refund to fail on ${charge.id}.`);
  }
  refund.status = 'failed';
  charge.amountRefunded -= refund.amount;
  return refund;
}
