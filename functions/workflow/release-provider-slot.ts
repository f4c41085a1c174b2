import { DEFAULT_THROTTLE_MS } from '../domain/admission';
import { decideAfterCall } from '../use-cases/likeness-cap';
import { releaseSlot } from '../adapters/admission';
import { logger } from '../common/logger';
import { releaseSlotInput } from './inputs/release-slot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task ReleaseProviderSlot (function `generation-release-provider-slot`), after every provider call,
 * whatever its end: gives the lease back (a 429 also pauses every admission for its `retry-after`) and decides the
 * slot's next step (domain/slot-outcomes.ts): `done`, `acquire` (back in line) or `fail` (refunded by Finalize) —
 * with the likeness cap (use-cases/likeness-cap.ts): an unbilled call goes back to the day's count, and a failed
 * likeness check that reaches the generation's limit stops it instead of retrying.
 *
 * Input `{ generationId, userId, slot, leaseId, call: { outcome, retryAfterMs } | { Error, Cause }, retries }` →
 * output `{ next: 'done' | 'acquire' | 'fail', retries, error: string | null }`.
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const input = releaseSlotInput.parse(event);
  const { call } = input;
  const outcome = 'Error' in call ? call.Error : call.outcome;
  const throttleMs =
    'outcome' in call && call.outcome === 'throttled'
      ? (call.retryAfterMs ?? DEFAULT_THROTTLE_MS)
      : undefined;
  await releaseSlot(input.leaseId, throttleMs);
  const decision = await decideAfterCall({
    sub: input.userId,
    generationId: input.generationId,
    slot: input.slot,
    outcome,
    retries: input.retries,
  });
  if (outcome !== 'saved') {
    logger.info('Provider call ended without a headshot', {
      outcome,
      throttleMs,
      next: decision.next,
    });
  }
  return decision;
}, workflowKeys);
