import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { releaseLease } from '../adapters/provider-queue/leases';
import { deadlineMs } from '../adapters/provider-queue/settings';
import { logger } from '../common/logger';
import { throttleMsOf } from '../domain/provider-queue';
import { enqueueTimeoutSeconds } from '../domain/provider-queue-order';
import { PROVIDER_REFUSAL } from '../domain/provider-refusals';
import type { RetryCounts } from '../domain/slot-outcomes';
import { decideAfterCall, type SlotDecision } from './likeness-cap';
import { countProviderRefusal, type RefusedCall } from './provider-refusals';

/**
 * The end of a provider call's hold on the provider queue (docs/architecture.md §4): its lease goes back, the
 * dispatcher is woken, and the slot's next step is decided with the likeness cap (use-cases/likeness-cap.ts); a call
 * the provider refused counts against its generation and account (use-cases/provider-refusals.ts).
 */

/** How the slot's call ended: CallProvider's or FinishHeadshot's result, or the Catch's `{ Error, Cause }`. */
export type SlotCallEnd =
  | { outcome: string; headshotId?: string | null; retryAfterMs?: number | null }
  | { Error: string; Cause?: string };

/** One slot to release (ReleaseProviderSlot's input). */
export interface SlotRelease {
  generationId: string;
  userId: string;
  slot: number;
  leaseId: string;
  call: SlotCallEnd;
  /** The slot's retries so far, by error name. */
  retries: RetryCounts;
  /** The slot's provider calls before this one (0 for its first). */
  calls: number;
  /** When the generation's execution started (ISO 8601): its deadline counts from here. */
  startedAt: string;
}

/** The slot's next step, as the workflow keeps it. */
export interface SlotReleaseResult extends SlotDecision {
  /** The slot's provider calls so far: the next EnterLine's call number. */
  calls: number;
  /** The seconds left until the generation's deadline: the next EnterLine's `TimeoutSecondsPath`. */
  waitSeconds: number;
}

/** What releasing a slot needs from the outside world: the lease, wake-up messages, the likeness cap. */
export interface ReleaseProviderSlotPorts {
  releaseLease: typeof releaseLease;
  wakeDispatcher: typeof wakeDispatcher;
  /** The likeness cap after a call (use-cases/likeness-cap.ts). */
  decideAfterCall: (call: Parameters<typeof decideAfterCall>[0]) => Promise<SlotDecision>;
  /** A refused call's cost to its refuser (use-cases/provider-refusals.ts); whether it stopped the generation. */
  countProviderRefusal: (refused: RefusedCall) => Promise<boolean>;
  /** GENERATION_DEADLINE_MINUTES in ms. */
  deadlineMs: () => number;
}

const adapters: ReleaseProviderSlotPorts = {
  releaseLease,
  wakeDispatcher,
  decideAfterCall: (call) => decideAfterCall(call),
  countProviderRefusal: (refused) => countProviderRefusal(refused),
  deadlineMs,
};

/**
 * Workflow task ReleaseProviderSlot, after every provider call whatever its end: gives the lease back and, when its
 * permit comes back with it (CallProvider gives it back as soon as the provider answered with an image) or a 429
 * pauses admissions for its `retry-after` (at most PROVIDER_MAX_PAUSE_SECONDS), wakes the dispatcher; then decides the
 * slot's next step (domain/slot-outcomes.ts): `done`, `acquire` (back in the queue) or `fail` (refunded by Finalize) —
 * with the likeness cap: an unbilled call goes back to the day's count, and a failed likeness check that reaches the
 * generation's limit stops it instead of retrying. A refused call (`ProviderRejectedError`) fails its slot and counts
 * against its generation and account, which may stop the generation.
 *
 * @param now epoch ms (tests)
 * @throws whatever a port throws (the Task is retried: giving the lease back twice changes nothing)
 */
export async function releaseProviderSlot(
  release: SlotRelease,
  now = Date.now(),
  ports: ReleaseProviderSlotPorts = adapters,
): Promise<SlotReleaseResult> {
  const { call } = release;
  const outcome = 'Error' in call ? call.Error : call.outcome;
  const throttleMs = 'Error' in call ? undefined : throttleMsOf(call.outcome, call.retryAfterMs);
  const released = await ports.releaseLease(release.leaseId, throttleMs, now);
  // A permit came back (or a pause began): the dispatcher looks at the queue again. After an image, CallProvider gave
  // the permit back and woke it already.
  if (released || throttleMs !== undefined) await ports.wakeDispatcher('release');
  const decision = await ports.decideAfterCall({
    sub: release.userId,
    generationId: release.generationId,
    slot: release.slot,
    outcome,
    retries: release.retries,
  });
  if (outcome === PROVIDER_REFUSAL) {
    const { userId: sub, generationId, slot, calls: call } = release;
    await ports.countProviderRefusal({ sub, generationId, slot, call });
  }
  if (outcome !== 'saved') {
    // A slot given up (refunded by Finalize) is worth a warning: what ended it is the first question about a refund.
    const log = decision.next === 'fail' ? logger.warn.bind(logger) : logger.info.bind(logger);
    log('Provider call ended without a headshot', { outcome, throttleMs, next: decision.next });
  }
  const deadline = Date.parse(release.startedAt) + ports.deadlineMs();
  return { ...decision, calls: release.calls + 1, waitSeconds: enqueueTimeoutSeconds(deadline, now) };
}
