import { enqueueProviderCall } from '../use-cases/enqueue-provider-call';
import { enterLineInput } from './inputs/enter-line';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task EnterLine (function `generation-enter-provider-line`, `lambda:invoke.waitForTaskToken`): enqueues the
 * slot's ticket — with the Task's token — in the provider queue and wakes the dispatcher
 * (use-cases/enqueue-provider-call.ts). The Task then waits, with no Lambda running and no state transition, until
 * the dispatcher resumes it with `{ leaseId }` or fails it with `AdmissionDeadline`.
 *
 * Input `{ taskToken, generationId, userId, slot, round, call, startedAt }` → `{ orderKey }` (ignored: the Task's
 * output is the dispatcher's).
 *
 * @throws {AdmissionDeadlineError} (`AdmissionDeadline`) the generation's deadline passed: no ticket, refunded
 * @throws {LikenessStoppedError | ProviderCallCapError} (`LikenessStopped`, `ProviderCallCapReached`) the generation
 *   was stopped by the likeness cap, or the account's provider calls for the day are used up: the slot is not
 *   enqueued and is refunded (use-cases/likeness-cap-before-call.ts)
 */
export const handler = withLambdaContext(async (event: unknown) => {
  return enqueueProviderCall(enterLineInput.parse(event));
}, workflowKeys);
