import { callProvider, type CallProviderResult } from '../use-cases/call-provider';
import { loadSecrets } from '../common/secrets';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';
import { callProviderInput } from './inputs/call-provider';

/**
 * Workflow task CallProvider (function `generation-call-provider`, 512 MB), one Map iteration = one slot = ONE
 * provider call (docs/architecture.md §4; use-cases/call-provider.ts): counts the call against the likeness cap, asks
 * the provider for one image and writes its bytes to the results bucket's `work/` prefix, then gives the lease's
 * permit back. The 60-150 s the provider takes are billed at this function's size, so it does no image work:
 * FinishHeadshot (2 GB) does the likeness check and the encodes. Runs only with a lease from the provider queue
 * (EnterLine, resumed by the dispatcher); ReleaseProviderSlot follows whatever happens. A 429 comes back as
 * `outcome: 'throttled'`, not as a failure.
 *
 * Input `{ generationId, userId, slot, style, background, prompt, references, leaseId? }` → output
 * {@link CallProviderResult}.
 *
 * @throws {ProviderUnavailableError | ProviderTimeoutError} back in the queue a bounded number of times
 *   (domain/slot-outcomes.ts)
 * @throws {ProviderRejectedError | ProviderInvalidOutputError | ProviderMisconfiguredError} refused, unusable or
 *   misconfigured: the slot is refunded
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; no call made)
 * @throws {ReferenceMissingError} a reference photo is gone (not retried; no call made)
 * @throws {LikenessStoppedError | ProviderCallCapError} the likeness cap: the generation was stopped, or the
 *   account's provider calls for the day are used up — no call is made, the slot is refunded
 */
export const handler = withLambdaContext(async (event: unknown): Promise<CallProviderResult> => {
  await loadSecrets();
  return callProvider(callProviderInput.parse(event));
}, workflowKeys);
