import { grantsPriority } from './packs';
import type { QueuePriority } from './provider-queue-order';

/**
 * A customer's standing in the provider line (docs/decisions/019-paid-first.md): which purchases make an account paid,
 * read from its purchase items every time a slot is enqueued and at each start. Pure.
 */

/** One purchase as its item stores it (docs/architecture.md §2). */
export interface PurchaseStanding {
  packId: string;
  /** Credits granted. */
  credits: number;
  /** Cents charged after promotion codes; `0` for a 100 %-off purchase; absent on old items (taken as paid). */
  amountTotal?: number;
  /** Credits taken back by refunds and disputes. */
  creditsReversed?: number;
  /** `completed`, `refunded` or `disputed`. */
  status?: string;
}

/** What makes a purchase count as paid (PROVIDER_PAID_MIN_CENTS, PROVIDER_PAID_MAX_REFUNDED_SHARE). */
export interface StandingRules {
  /** Cents charged at least (after promotion codes): a purchase discounted to near zero does not count. */
  minPaidCents: number;
  /** The share of its credits a refund may take back (0-1) before the purchase stops counting. */
  maxRefundedShare: number;
}

/** PROVIDER_PAID_MIN_CENTS and PROVIDER_PAID_MAX_REFUNDED_SHARE when unset: $1.00, half the credits. */
export const DEFAULT_STANDING_RULES: StandingRules = { minPaidCents: 100, maxRefundedShare: 0.5 };

/** Whether one purchase counts as paid under `rules` (its status aside): charged enough, not refunded past the share. */
function counts(p: PurchaseStanding, rules: StandingRules): boolean {
  const charged = p.amountTotal === undefined || p.amountTotal >= rules.minPaidCents;
  return charged && (p.creditsReversed ?? 0) <= rules.maxRefundedShare * p.credits;
}

/**
 * The customer's current class in the queue, from their purchase items, looked up every time a slot is enqueued
 * (docs/decisions/019-paid-first.md): `free` unless at least one purchase — of any pack — was charged at least
 * `minPaidCents` and is not refunded beyond `maxRefundedShare` of its credits; then `priority` when such a purchase is
 * of a "Priority generation" pack (domain/packs.ts), else `standard`. Any disputed payment makes the account `free`
 * (a chargeback takes the standing away, whatever else it bought).
 */
export function priorityStanding(
  purchases: readonly PurchaseStanding[],
  rules: StandingRules = DEFAULT_STANDING_RULES,
): QueuePriority {
  if (purchases.some((p) => p.status === 'disputed')) return 'free';
  const paid = purchases.filter((p) => counts(p, rules));
  if (paid.length === 0) return 'free';
  return paid.some((p) => grantsPriority(p.packId)) ? 'priority' : 'standard';
}
