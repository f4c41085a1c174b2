import { acquireSlot } from '../adapters/admission';
import { acquireSlotInput } from './inputs/acquire-slot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task AcquireProviderSlot (function `generation-acquire-provider-slot`): one try of a slot to pass the
 * provider admission point (adapters/admission.ts). Answers at once — admitted with a lease, or the time to try again
 * (the ASL's Wait state sleeps until it, no Lambda waits) with the generation's place in line.
 *
 * Input `{ generationId, userId, slot, round, priority: 'priority' | 'standard', startedAt }` → output
 * `{ granted, leaseId, retryAt (ISO 8601), position, etaSeconds }`.
 *
 * @throws {AdmissionDeadlineError} the generation's deadline passed: the slot is refunded
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const input = acquireSlotInput.parse(event);
  return acquireSlot(input);
}, workflowKeys);
