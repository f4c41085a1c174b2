import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { currentPriority, enterLine } from '../adapters/provider-queue/positions';
import { assertSlotMayQueue } from '../use-cases/likeness-slot-gate';
import { enterLineInput } from './inputs/enter-line';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task EnterLine (function `generation-enter-provider-line`, `lambda:invoke.waitForTaskToken`): puts the
 * slot's ticket — with the Task's token — in the provider line (adapters/provider-queue) and wakes the dispatcher.
 * The Task then waits, with no Lambda running and no state transition, until the dispatcher resumes it with
 * `{ leaseId }` or fails it with `AdmissionDeadline`.
 *
 * Input `{ taskToken, generationId, userId, slot, round, call, startedAt }` → `{ orderKey }` (ignored: the Task's
 * output is the dispatcher's).
 *
 * @throws {AdmissionDeadlineError} (`AdmissionDeadline`) the generation's deadline passed: no ticket, refunded
 * @throws {LikenessStoppedError | ProviderCallCapError} (`LikenessStopped`, `ProviderCallCapReached`) the generation
 *   was stopped by the likeness cap, or the account's provider calls for the day are used up: the slot takes no place
 *   in line and is refunded (use-cases/likeness-slot-gate.ts)
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const input = enterLineInput.parse(event);
  await assertSlotMayQueue(input.userId, input.generationId);
  // The customer's standing now, not at the start: a refund or a dispute since takes effect at once.
  const orderKey = await enterLine(input, await currentPriority(input.userId));
  await wakeDispatcher('enter');
  return { orderKey };
}, workflowKeys);
