import { QuotaExceededError, describeWait } from './quotas';

/**
 * The provider line's two lanes (docs/decisions/019-paid-first.md): paid generations first, free ones (sign-up
 * credits only) in a lane of their own behind them (domain/provider-queue-order.ts `FREE_LANE_OFFSET_MS`), let
 * through at a bounded share of the provider's capacity while paid work waits — so a paying customer never waits
 * behind more than that share of free work, and free work is never starved. And the start a lane cannot serve before
 * its deadline, refused up front. Pure: the dispatcher (use-cases/dispatch-provider-queue.ts) and the start
 * (use-cases/provider-line-room.ts) apply it.
 */

/** PROVIDER_FREE_SHARE when unset: free work gets a quarter of the admissions while paid work waits. */
export const DEFAULT_FREE_SHARE = 0.25;

/**
 * The most admissions the free lane may have in hand (the queue state's `freeAllowance`): one, so free work never
 * bursts ahead of waiting paid work with what it was owed while it had nothing waiting.
 */
export const MAX_FREE_ALLOWANCE = 1;

/** One round's admissions by lane, and the free lane's allowance after it. */
export interface LanePlan {
  paid: number;
  free: number;
  /** The free lane's allowance to store (0 ≤ it ≤ {@link MAX_FREE_ALLOWANCE}). */
  allowance: number;
}

/** What one dispatcher round knows of its lanes. */
export interface LaneRound {
  /** Slots it may admit (free permits, tokens). */
  permits: number;
  /** Paid tickets read at the paid lane's head (read up to permits + 1: more than `permits` = paid work still waits). */
  paidWaiting: number;
  /** Free tickets read at the free lane's head (up to permits). */
  freeWaiting: number;
  /** The free lane's allowance stored in the queue's state (0 when absent). */
  allowance: number;
  /** PROVIDER_FREE_SHARE, 0-1. */
  share: number;
}

/**
 * How many of a round's `permits` go to each lane. When every waiting paid ticket fits, they all go, and free tickets
 * take what is left. When paid work is left waiting, the free lane gets its share: each admission adds `share` to its
 * allowance and each free admission spends a whole one (a deficit counter), so over any stretch in which paid work
 * waits, free work gets at most `share` of the admissions, give or take one — e.g. one in four at 0.25 — and a paid
 * ticket never waits behind more than that. The allowance is kept between 0 and {@link MAX_FREE_ALLOWANCE}.
 */
export function planLanes(round: LaneRound): LanePlan {
  const { permits, paidWaiting, freeWaiting, allowance, share } = round;
  if (permits <= 0) return { paid: 0, free: 0, allowance };
  if (paidWaiting <= permits) {
    return { paid: paidWaiting, free: Math.min(freeWaiting, permits - paidWaiting), allowance };
  }
  const credit = allowance + permits * share;
  const free = Math.max(0, Math.min(freeWaiting, permits, Math.floor(credit + 1e-9)));
  return {
    paid: permits - free,
    free,
    allowance: Math.min(MAX_FREE_ALLOWANCE, Math.max(0, credit - free)),
  };
}

/** The waiting slots of each lane ahead of a new generation. */
export interface SlotsAhead {
  paid: number;
  free: number;
}

/**
 * How many slots are admitted before the LAST of a new generation's `own` slots is — the `slotsAhead` to give
 * domain/provider-queue.ts `etaSeconds` — for the backlog at hand (later arrivals aside). A free generation's `own`
 * slots and the free ones ahead go at `share` of the admissions while paid work waits, all of them once it does not:
 * the paid slots admitted meanwhile are the fewer of those waiting and (free + own) × (1 − share) / share. A paid
 * generation's slots meet at most (paid + own) × share / (1 − share) free ones.
 */
export function laneSlotsAhead(lane: 'paid' | 'free', ahead: SlotsAhead, own: number, share: number): number {
  const mine = lane === 'free' ? ahead.free + own : ahead.paid + own;
  const others = lane === 'free' ? ahead.paid : ahead.free;
  const theirShare = lane === 'free' ? 1 - share : share;
  const myShare = 1 - theirShare;
  const meanwhile = myShare <= 0 ? others : Math.min(others, (mine * theirShare) / myShare);
  return Math.max(0, Math.ceil(mine + meanwhile - 1 - 1e-9));
}

/** The message of a start refused up front because the line is too long (docs/product-spec.md §5, verbatim). */
export function lineFullMessage(retryAfterSeconds: number): string {
  return `So many headshots are being made right now that yours could not be finished in time. Nothing was spent: please try again in ${describeWait(retryAfterSeconds)}.`;
}

/** The shortest wait a refused start is told, in seconds: the line's estimate moves by the minute. */
export const MIN_LINE_RETRY_SECONDS = 60;

/**
 * Refuses up front a start whose last slot would get its provider call too late (docs/decisions/019-paid-first.md):
 * when `waitSeconds` (the estimated wait until its last slot's call ends) exceeds `deadlineSeconds`
 * (GENERATION_DEADLINE_MINUTES), instead of letting its slots wait until the deadline and refunding them. The time
 * to try again is the excess: by then the line ahead has moved that far (at least {@link MIN_LINE_RETRY_SECONDS}).
 *
 * @throws {QuotaExceededError} `provider-line`, with the time to try again (an HTTP 429 with `Retry-After`)
 */
export function assertWaitFitsDeadline(waitSeconds: number, deadlineSeconds: number): void {
  if (waitSeconds <= deadlineSeconds) return;
  const retry = Math.max(MIN_LINE_RETRY_SECONDS, Math.ceil(waitSeconds - deadlineSeconds));
  throw new QuotaExceededError('provider-line', retry, lineFullMessage(retry));
}
