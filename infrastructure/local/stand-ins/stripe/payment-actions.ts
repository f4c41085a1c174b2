import type { PartLog } from '../../support/log';
import {
  applyPromotionCode,
  chargeObject,
  closeDispute,
  disputeCharge,
  failRefund,
  newCharge,
  refundCharge,
  refundObject,
  type ChargeState,
} from './charges';
import { checkoutEvent, deliverWebhook } from './events';
import { sessionView, type SessionStore, type StoredSession } from './session-store';
import { StripeStyleError } from './wire';

/*
 * What happens to a session after Checkout in the local provider (docs/architecture.md §5): the buyer pays or is
 * declined on the hosted page, the merchant refunds, the buyer's bank disputes — each change saved, and each
 * announced to the webhook URL with an event signed like Stripe's.
 */

/** The actions on stored sessions, as the hosted page, Stripe's API and tests take them. */
export interface PaymentActions {
  /**
   * What Pay does: completes an open session as paid and, unless `deliver` is false, posts the signed
   * `checkout.session.completed` event and waits for the answer.
   *
   * @throws {StripeStyleError} 404 for an unknown session, 400 for an expired one
   */
  pay(
    id: string,
    options?: { deliver?: boolean; promotionCode?: string },
  ): Promise<{ session: Record<string, unknown>; event: Record<string, unknown> | undefined }>;
  /**
   * What Decline does: leaves the session open and unpaid and remembers the decline, which the hosted page then shows
   * in place (Stripe's Checkout never sends a declined buyer to `success_url`).
   */
  decline(id: string): Record<string, unknown>;
  /**
   * What a refund in the Stripe dashboard (or `POST /v1/refunds`) does: refunds `amount` cents of the session's
   * charge (default: all that is left) and, unless `deliver` is false, posts the signed `charge.refunded` event.
   *
   * @throws {StripeStyleError} 404 for an unknown session, 400 when it has no charge or nothing is left to refund
   */
  refund(
    id: string,
    options?: { amount?: number; deliver?: boolean },
  ): Promise<{ event: Record<string, unknown>; delivery: number | undefined }>;
  /** What the buyer's bank does: opens a dispute on the session's charge and posts `charge.dispute.created`. */
  dispute(
    id: string,
    options?: { deliver?: boolean },
  ): Promise<{ event: Record<string, unknown>; delivery: number | undefined }>;
  /** What the bank's decision does: closes the session's dispute and posts `charge.dispute.closed`. */
  closeDispute(
    id: string,
    outcome: 'won' | 'lost',
    options?: { deliver?: boolean },
  ): Promise<{ event: Record<string, unknown>; delivery: number | undefined }>;
  /**
   * What the card network does to a refund it cannot deliver: the refund fails and, as Stripe does, both
   * `charge.refund.updated` and `refund.failed` are posted, carrying the failed Refund.
   */
  failRefund(
    id: string,
    options?: { refundId?: string; deliver?: boolean },
  ): Promise<{ events: Record<string, unknown>[]; deliveries: (number | undefined)[] }>;
  /** Signs and posts an event to the webhook URL; resolves with the HTTP status (`undefined`: not delivered). */
  send(event: Record<string, unknown>): Promise<number | undefined>;
}

/**
 * The payment actions over `store`. Events go to `webhookUrl` signed with `webhookSecret` (never logged); with no
 * URL nothing is delivered.
 */
export function createPaymentActions(context: {
  store: SessionStore;
  webhookUrl: string | undefined;
  webhookSecret: string;
  log: PartLog;
}): PaymentActions {
  const { store, webhookUrl, webhookSecret, log } = context;

  async function send(event: Record<string, unknown>): Promise<number | undefined> {
    const type = String(event.type);
    if (!webhookUrl) {
      log.info(`${type}: no webhook URL configured, nothing delivered`);
      return undefined;
    }
    const started = Date.now();
    const outcome = await deliverWebhook(webhookUrl, JSON.stringify(event, null, 2), webhookSecret);
    const took = `${Date.now() - started} ms`;
    if ('status' in outcome) {
      log.info(`webhook ${type} ${String(event.id)} → ${outcome.status} (${took})`);
      return outcome.status;
    }
    log.error(`webhook ${type} ${String(event.id)} failed: ${outcome.error} (${took})`);
    return undefined;
  }

  function chargeOf(id: string): { entry: StoredSession; charge: ChargeState } {
    const entry = store.mustGet(id);
    if (!entry.charge) {
      throw new StripeStyleError(
        400,
        'invalid_request_error',
        `Checkout Session ${id} has no charge to refund or dispute.`,
      );
    }
    return { entry, charge: entry.charge };
  }

  async function refund(id: string, refundOptions: { amount?: number; deliver?: boolean } = {}) {
    const { entry, charge } = chargeOf(id);
    refundCharge(charge, refundOptions.amount);
    store.save();
    const event = checkoutEvent(
      'charge.refunded',
      chargeObject(charge, entry.session.metadata as Record<string, string>),
    );
    return { event, delivery: refundOptions.deliver === false ? undefined : await send(event) };
  }

  async function dispute(id: string, disputeOptions: { deliver?: boolean } = {}) {
    const { charge } = chargeOf(id);
    const event = checkoutEvent('charge.dispute.created', disputeCharge(charge));
    store.save();
    return { event, delivery: disputeOptions.deliver === false ? undefined : await send(event) };
  }

  async function closeDisputeOf(id: string, outcome: 'won' | 'lost', o: { deliver?: boolean } = {}) {
    const { charge } = chargeOf(id);
    const event = checkoutEvent('charge.dispute.closed', closeDispute(charge, outcome));
    store.save();
    return { event, delivery: o.deliver === false ? undefined : await send(event) };
  }

  async function failRefundOf(id: string, o: { refundId?: string; deliver?: boolean } = {}) {
    const { charge } = chargeOf(id);
    const refund = refundObject(charge, failRefund(charge, o.refundId));
    store.save();
    const events = [checkoutEvent('charge.refund.updated', refund), checkoutEvent('refund.failed', refund)];
    const deliveries: (number | undefined)[] = [];
    for (const event of events) deliveries.push(o.deliver === false ? undefined : await send(event));
    return { events, deliveries };
  }

  async function pay(id: string, payOptions: { deliver?: boolean; promotionCode?: string } = {}) {
    const entry = store.mustGet(id);
    const { session } = entry;
    if (payOptions.promotionCode && session.status === 'open')
      applyPromotionCode(session, payOptions.promotionCode);
    if (session.status === 'expired') {
      throw new StripeStyleError(
        400,
        'invalid_request_error',
        'This Checkout Session has expired.',
        'session',
      );
    }
    if (session.status === 'complete') return { session: sessionView(entry, false), event: undefined };
    // Synchronous state change before any await: a double-submitted Pay completes once.
    session.status = 'complete';
    if (session.amount_total === 0) {
      // A 100 % promotion code: Checkout completes without a payment (no payment intent, nothing to refund).
      session.payment_status = 'no_payment_required';
    } else {
      entry.charge = newCharge(session.amount_total, session.currency);
      session.payment_status = 'paid';
      session.payment_intent = entry.charge.paymentIntentId;
    }
    session.url = null;
    session.customer_details = {
      address: null,
      business_name: null,
      email: session.customer_email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    delete entry.declinedAt;
    store.save();
    const event = checkoutEvent('checkout.session.completed', sessionView(entry, false));
    if (payOptions.deliver !== false) await send(event);
    return { session: sessionView(entry, false), event };
  }

  function decline(id: string) {
    const entry = store.mustGet(id);
    if (entry.session.status === 'open') {
      entry.declinedAt = Math.floor(Date.now() / 1000);
      store.save();
    }
    return sessionView(entry, false);
  }

  return {
    pay,
    decline,
    refund,
    dispute,
    closeDispute: closeDisputeOf,
    failRefund: failRefundOf,
    send,
  };
}
