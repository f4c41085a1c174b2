import { requireGeneration } from '../adapters/generations';
import { imageProvider, ProviderThrottledError } from '../adapters/image-providers';
import { putObject } from '../adapters/storage';
import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { returnPermit } from '../adapters/provider-queue/leases';
import { GenerationClosedError } from '../domain/generation-errors';
import { providerImageKey } from '../domain/object-keys';
import { admitProviderCall } from '../use-cases/likeness-slot-gate';
import { loadSecrets } from '../common/secrets';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';
import { callProviderInput } from './inputs/call-provider';
import { loadReferences } from './reference-bytes';

/** How CallProvider ended; `generated` leads to FinishHeadshot, the others straight to ReleaseProviderSlot. */
export type CallOutcome = 'generated' | 'saved' | 'throttled';

/** CallProvider's result, kept by the workflow at `$.call`. */
export interface CallProviderResult {
  slot: number;
  outcome: CallOutcome;
  /** The headshot of a slot saved before (a task run again after it finished); otherwise `null`. */
  headshotId: string | null;
  /** A 429's wait in ms, when the provider named one; otherwise `null`. */
  retryAfterMs: number | null;
  /** The provider that made the image (`openai`, `local`), for FinishHeadshot to record; `null` without an image. */
  provider: string | null;
}

/**
 * Workflow task CallProvider (function `generation-call-provider`, 512 MB), one Map iteration = one slot = ONE
 * provider call (docs/architecture.md §4): reads the generation and the reference photos, counts the call against the
 * likeness cap, asks the provider for one image and writes its bytes, untouched, to the results bucket's `work/`
 * prefix (`work/<sub>/<generationId>/<slot>`, domain/object-keys.ts), which no customer-facing function may read and
 * which expires after a day. It does no image work of its own: the 60-150 s the provider takes are billed at this
 * function's size, and FinishHeadshot (2 GB) does the likeness check and the encodes.
 *
 * Safe to run again for the same slot: a saved slot returns its headshot without calling the provider.
 * Runs only with a lease from the provider queue (EnterLine, resumed by the dispatcher), whose permit it gives back
 * once the image is stored (and wakes the dispatcher); ReleaseProviderSlot follows whatever happens. A 429 is an expected answer, not a failure: it comes back as `outcome: 'throttled'` with the wait the
 * provider named, and the slot goes back in line.
 *
 * Input `{ generationId, userId, slot, style, background, prompt, references }` → output {@link CallProviderResult}.
 *
 * @throws {ProviderUnavailableError | ProviderTimeoutError} back in line a bounded number of times
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
  const input = callProviderInput.parse(event);
  const { generationId, userId, slot } = input;
  // The generation and the references are read at once: both stand between the admission and the provider call.
  const [generation, loaded] = await Promise.allSettled([
    requireGeneration(userId, generationId),
    loadReferences(input.references),
  ]);
  if (generation.status === 'rejected') throw generation.reason;
  const current = generation.value;
  const existing = current.slots[String(slot)];
  const answer = (outcome: CallOutcome, fields: Partial<CallProviderResult> = {}): CallProviderResult => ({
    slot,
    outcome,
    headshotId: null,
    retryAfterMs: null,
    provider: null,
    ...fields,
  });
  if (existing) return answer('saved', { headshotId: existing });
  if (current.closedAt) throw new GenerationClosedError(`Generation ${generationId} is closed`);
  if (loaded.status === 'rejected') throw loaded.reason;
  // The likeness cap: a stopped generation, or a day without calls left, makes no call.
  await admitProviderCall(current);
  const provider = imageProvider();
  let image: Buffer;
  try {
    image = await provider.generate({
      prompt: input.prompt,
      references: loaded.value,
      style: input.style,
      background: input.background,
      slot,
      generationId,
      resolution: current.resolution,
    });
  } catch (error) {
    if (!(error instanceof ProviderThrottledError)) throw error;
    return answer('throttled', { retryAfterMs: error.retryAfterMs ?? null });
  }
  // Raw bytes, whatever the provider encoded: FinishHeadshot decodes them (and refuses what does not decode).
  await putObject('results', providerImageKey(userId, generationId, slot), image, 'application/octet-stream');
  // The provider is done with this call: its permit goes back now, not after FinishHeadshot's likeness check and
  // encodes, so the next slot calls meanwhile (PROVIDER_MAX_CONCURRENCY counts calls at the provider). Last, so a
  // retry of this Task after a failure above still holds it.
  if (input.leaseId && (await returnPermit(input.leaseId))) await wakeDispatcher('permit');
  return answer('generated', { provider: provider.name });
}, workflowKeys);
