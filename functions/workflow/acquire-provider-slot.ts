import { acquireSlot, leaveLine } from '../adapters/admission';
import { assertSlotMayQueue } from '../use-cases/likeness-slot-gate';
import { acquireSlotInput } from './inputs/acquire-slot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';
import { countMetric, timingMetric } from '../common/metrics';

/**
 * Workflow task AcquireProviderSlot (function `generation-acquire-provider-slot`): one try of a slot to pass the
 * provider admission point (adapters/admission.ts). Answers at once — admitted with a lease, or the time to try again
 * (the ASL's Wait state sleeps until it, no Lambda waits) with the generation's place in line.
 *
 * Input `{ generationId, userId, slot, round, priority: 'priority' | 'standard', startedAt }` → output
 * `{ granted, leaseId, retryAt (ISO 8601), position, etaSeconds }`.
 *
 * @throws {AdmissionDeadlineError} the generation's deadline passed: the slot is refunded
 * @throws {LikenessStoppedError | ProviderCallCapError} (`LikenessStopped`, `ProviderCallCapReached`) the generation
 *   was stopped by the likeness cap, or the account's provider calls for the day are used up: the slot takes no place
 *   in line and is refunded (use-cases/likeness-slot-gate.ts)
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const input = acquireSlotInput.parse(event);
  try {
    await assertSlotMayQueue(input.userId, input.generationId);
  } catch (error) {
    // A slot that will make no call gives its place in line back at once.
    await leaveLine(input);
    throw error;
  }
  const answer = await acquireSlot(input);
  // The dashboard's queue: how long slots waited since their generation started, and how long the line is.
  if (answer.granted) timingMetric('QueueWait', Date.now() - Date.parse(input.startedAt));
  else if (answer.position !== null) countMetric('QueuePosition', answer.position);
  return answer;
}, workflowKeys);
