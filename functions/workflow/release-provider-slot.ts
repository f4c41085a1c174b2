import { releaseProviderSlot } from '../use-cases/release-provider-slot';
import { releaseSlotInput } from './inputs/release-slot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task ReleaseProviderSlot (function `generation-release-provider-slot`), after every provider call,
 * whatever its end: gives the lease back, wakes the dispatcher when a permit came back or a 429 paused admissions,
 * and decides the slot's next step with the likeness cap (use-cases/release-provider-slot.ts).
 *
 * Input `{ generationId, userId, slot, leaseId, call: { outcome, retryAfterMs } | { Error, Cause }, retries, calls,
 * startedAt }` →
 * output `{ next: 'done' | 'acquire' | 'fail', retries, error: string | null, calls, waitSeconds }` (`calls`: the
 * slot's provider calls so far, the next EnterLine's call number; `waitSeconds`: the seconds left until the deadline,
 * its TimeoutSecondsPath).
 */
export const handler = withLambdaContext(async (event: unknown) => {
  return releaseProviderSlot(releaseSlotInput.parse(event));
}, workflowKeys);
