import {
  closeGeneration,
  markFailed,
  markFinished,
  requireGeneration,
  setCreditsRefunded,
  type GenerationRecord,
} from '../adapters/generations';
import { CreditChangeGuardError, refundCredits, type CreditChange } from '../adapters/ledger';
import type { TransactItem } from '../adapters/support/ledger-items';
import { seatUseItem } from '../adapters/teams/allowance';
import { countMetric, type RefundReason } from '../common/metrics';
import { logger } from '../common/logger';
import { payerAccount } from '../domain/ledger-account';
import { seatUseOf } from '../domain/team-seats';
import { likenessRefusedError, likenessStopError, refusedForLikeness } from '../domain/likeness-cap';
import { finalStatus, isTerminal, PROGRESS } from '../domain/generation-status';
import { HEADSHOTS_PER_GENERATION, missingSlots, slotRefundRef } from '../domain/slots';
import { generationErrorOf, NoHeadshotsError, type GenerationError } from '../domain/generation-errors';

/**
 * Ending a generation and giving back what it did not deliver (docs/architecture.md §4, §8 "Money").
 *
 * Compensation works by closing: every path that refunds (Finalize, RefundCredits, the reconciliation of a timed-out
 * execution, a failed StartExecution, the sweeper) first sets `closedAt`, and a slot may only save its headshot while
 * `closedAt` is absent. So the set of refunded slots — every slot without a headshot once closed — is final, and
 * refunds are per slot with ref `<generationId>#slot-<n>`, so every path can repeat them safely. Every refund goes to
 * the ledger that paid (`payer`: the customer's, or a team's: domain/ledger-account.ts `payerAccount`), and a
 * team-paid generation that delivered nothing gives the member's allowance counter back (docs/teams.md "Money").
 */

/**
 * What ending a generation needs from the outside world: the generation item, the ledger's refunds, and a team
 * member's allowance counter (given back in a refund's transaction).
 */
export interface CompensationPorts {
  requireGeneration: typeof requireGeneration;
  closeGeneration: typeof closeGeneration;
  setCreditsRefunded: typeof setCreditsRefunded;
  markFinished: typeof markFinished;
  markFailed: typeof markFailed;
  refundCredits: (change: CreditChange) => Promise<{ applied: boolean }>;
  seatUseItem: typeof seatUseItem;
}

/** The real adapters of {@link CompensationPorts}. */
export const compensationAdapters: CompensationPorts = {
  requireGeneration,
  closeGeneration,
  setCreditsRefunded,
  markFinished,
  markFailed,
  refundCredits,
  seatUseItem,
};

/** What one slot of `generation` cost: its credits reserved over its slots (1, or 2 at high resolution). */
export function creditsPerSlot(generation: Pick<GenerationRecord, 'creditsReserved' | 'slotCount'>): number {
  return generation.creditsReserved / (generation.slotCount ?? HEADSHOTS_PER_GENERATION);
}

/**
 * Closes the generation and refunds every slot without a headshot its credits (1, or 2 at high resolution: the
 * generation's `creditsReserved` over its slots; ref `<id>#slot-<n>`, so a repeated call refunds nothing twice) to the
 * ledger that paid, then records `creditsRefunded`. When a team-paid generation delivered nothing, the first slot's
 * refund also gives the member's counter back (`generationsUsed` or `editsUsed` − 1), once, with that refund.
 *
 * @returns the closed generation, with `creditsRefunded` up to date
 * @throws {GenerationNotFoundError}
 */
export async function refundUndelivered(
  sub: string,
  id: string,
  reason: RefundReason = 'workflow_failed',
  ports: CompensationPorts = compensationAdapters,
): Promise<GenerationRecord> {
  const closed = await ports.closeGeneration(sub, id);
  const slotCount = closed.slotCount ?? HEADSHOTS_PER_GENERATION;
  const missing = missingSlots(Object.keys(closed.slots).map(Number), { slotCount: closed.slotCount });
  const account = payerAccount(closed);
  const seat = missing.length === slotCount ? seatUseOf(closed) : undefined;
  // One transaction per slot, one after the other: each is idempotent, and a crash halfway is finished by a retry.
  const perSlot = creditsPerSlot(closed);
  let applied = 0;
  for (const [i, slot] of missing.entries()) {
    const change: CreditChange = { account, amount: perSlot, ref: slotRefundRef(id, slot) };
    const giveBack = i === 0 && seat ? [ports.seatUseItem(seat, -1)] : [];
    if ((await refundOnce(change, giveBack, ports)).applied) applied += perSlot;
  }
  // Only refunds this call made count (a repeated compensation refunds nothing twice, nor counts it twice).
  if (applied > 0) countMetric('CreditsRefunded', applied, {}, { dimensions: { reason } });
  await ports.setCreditsRefunded(sub, id, missing.length * perSlot);
  return { ...closed, creditsRefunded: missing.length * perSlot };
}

/**
 * One slot's refund with what commits with it (a member's counter given back). A counter that cannot move (already at
 * 0: nothing to give back) never holds the credits back: the refund is made alone and the oddity logged.
 */
async function refundOnce(
  change: CreditChange,
  withIt: TransactItem[],
  ports: CompensationPorts,
): Promise<{ applied: boolean }> {
  if (withIt.length === 0) return ports.refundCredits(change);
  try {
    return await ports.refundCredits({ ...change, extraItems: withIt });
  } catch (error) {
    if (!(error instanceof CreditChangeGuardError)) throw error;
    logger.error('A team member’s allowance could not be given back; refunding the credits alone', {
      ref: change.ref,
    });
    return ports.refundCredits(change);
  }
}

/**
 * Finalize: closes the generation, refunds every empty slot and ends it `succeeded` (every slot) or `partial`,
 * stage `done`, progress 100. Repeating it changes nothing.
 *
 * @throws {NoHeadshotsError} when no slot saved a headshot: the workflow's Catch then refunds all and marks it failed
 */
export async function finalizeGeneration(
  sub: string,
  id: string,
  ports: CompensationPorts = compensationAdapters,
): Promise<GenerationRecord> {
  const current = await ports.requireGeneration(sub, id);
  if (isTerminal(current.status)) return current;
  const reason = current.likenessStop ? 'likeness_cap' : 'undelivered';
  const closed = await refundUndelivered(sub, id, reason, ports);
  const delivered = Object.keys(closed.slots).length;
  const status = finalStatus(delivered, { expected: closed.slotCount });
  if (status === 'failed') throw new NoHeadshotsError(`No slot of generation ${id} produced a headshot`);
  countMetric('GenerationsDelivered', 1, { status });
  // A partial generation the likeness cap stopped says why, and asks for other photos.
  const error =
    status === 'partial' && closed.likenessStop
      ? likenessStopError(closed.likenessStop, delivered, closed.slotCount ?? HEADSHOTS_PER_GENERATION)
      : undefined;
  const completedAt = await ports.markFinished(sub, id, status, error);
  return {
    ...closed,
    status,
    stage: 'done',
    progress: PROGRESS.done,
    completedAt,
    ...(error ? { error } : {}),
  };
}

/**
 * The whole compensation in one call — close, refund every undelivered slot, mark failed (or partial) with `error`
 * — for paths outside the workflow (a failed StartExecution, an execution that timed out or was aborted, the
 * sweeper, "delete my data"). Idempotent.
 *
 * @throws {GenerationNotFoundError}
 */
export async function compensateGeneration(
  sub: string,
  id: string,
  error: GenerationError,
  ports: CompensationPorts = compensationAdapters,
): Promise<void> {
  await refundUndelivered(sub, id, error.code.toLowerCase() as Lowercase<string>, ports);
  await ports.markFailed(sub, id, error);
}

/**
 * MarkFailed, after RefundCredits: ends the generation `failed` (or `partial` when some headshots were saved before
 * the failure) with an error the UI can show — the failure's own message for user-facing errors
 * (`NoUsablePhotosError`: 'None of your photos could be used: …'), a generic one otherwise, never internals
 * (domain/generation-errors.ts `generationErrorOf`); a generation the likeness cap stopped gets the cap's message
 * (domain/likeness-cap.ts), which says why, what was refunded and asks for other photos; one that delivered nothing
 * because every slot's headshot failed the likeness check (a regeneration or an edit, usually) gets
 * `LIKENESS_MISMATCH` with words for that (domain/likeness-cap.ts `likenessRefusedError`). A generation that already
 * ended keeps its status and error.
 *
 * @param failure the Catch's `{ Error, Cause }` (absent fields allowed)
 * @returns the generation's status and error after the call
 * @throws {GenerationNotFoundError}
 */
export async function markGenerationFailed(
  sub: string,
  id: string,
  failure: { Error?: string | undefined; Cause?: string | undefined } | undefined,
  ports: CompensationPorts = compensationAdapters,
): Promise<{ status: GenerationRecord['status']; error: GenerationError }> {
  const current = await ports.requireGeneration(sub, id);
  const slotCount = current.slotCount ?? HEADSHOTS_PER_GENERATION;
  const error = current.likenessStop
    ? likenessStopError(current.likenessStop, Object.keys(current.slots).length, slotCount)
    : failure?.Error === 'NoHeadshotsError' && refusedForLikeness(current.likenessRejections, slotCount)
      ? likenessRefusedError(slotCount)
      : generationErrorOf(failure?.Error, failure?.Cause);
  await ports.markFailed(sub, id, error);
  const generation = await ports.requireGeneration(sub, id);
  return { status: generation.status, error: generation.error ?? error };
}
