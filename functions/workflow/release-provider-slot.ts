import { generationSettings } from '../config/generation';
import { deadlineOf } from '../domain/generation-deadline';
import { DEFAULT_THROTTLE_MS } from '../domain/provider-queue';
import { decideAfterCall } from '../use-cases/likeness-cap';
import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { releaseLease } from '../adapters/provider-queue/leases';
import { logger } from '../common/logger';
import { releaseSlotInput } from './inputs/release-slot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task ReleaseProviderSlot (function `generation-release-provider-slot`), after every provider call,
 * whatever its end: gives the lease back and, when its permit comes back with it (CallProvider gives it back as soon as
 * the provider answered with an image), wakes the dispatcher (a 429 also pauses every admission for its
 * `retry-after`, at most PROVIDER_MAX_PAUSE_SECONDS) and decides the
 * slot's next step (domain/slot-outcomes.ts): `done`, `acquire` (back in line) or `fail` (refunded by Finalize) —
 * with the likeness cap (use-cases/likeness-cap.ts): an unbilled call goes back to the day's count, and a failed
 * likeness check that reaches the generation's limit stops it instead of retrying.
 *
 * Input `{ generationId, userId, slot, leaseId, call: { outcome, retryAfterMs } | { Error, Cause }, retries, calls,
 * startedAt }` →
 * output `{ next: 'done' | 'acquire' | 'fail', retries, error: string | null, calls, waitSeconds }` (`calls`: the
 * slot's provider calls so far, the next EnterLine's call number; `waitSeconds`: the seconds left until the deadline,
 * its TimeoutSecondsPath).
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const input = releaseSlotInput.parse(event);
  const { call } = input;
  const outcome = 'Error' in call ? call.Error : call.outcome;
  const throttleMs =
    'outcome' in call && call.outcome === 'throttled'
      ? (call.retryAfterMs ?? DEFAULT_THROTTLE_MS)
      : undefined;
  const released = await releaseLease(input.leaseId, throttleMs);
  // A permit came back (or a pause began): the dispatcher looks at the line again. After an image, CallProvider gave
  // the permit back and woke it already.
  if (released || throttleMs !== undefined) await wakeDispatcher('release');
  const decision = await decideAfterCall({
    sub: input.userId,
    generationId: input.generationId,
    slot: input.slot,
    outcome,
    retries: input.retries,
  });
  if (outcome !== 'saved') {
    // A slot given up (refunded by Finalize) is worth a warning: what ended it is the first question about a refund.
    const log = decision.next === 'fail' ? logger.warn.bind(logger) : logger.info.bind(logger);
    log('Provider call ended without a headshot', { outcome, throttleMs, next: decision.next });
  }
  const deadline = deadlineOf(input.startedAt, generationSettings().GENERATION_DEADLINE_MINUTES);
  // EnterLine's TimeoutSecondsPath: a positive whole number; past the deadline EnterLine refuses at once.
  const waitSeconds = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
  return { ...decision, calls: input.calls + 1, waitSeconds };
}, workflowKeys);
