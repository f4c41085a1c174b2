import { requireGeneration, type GenerationRecord } from '../adapters/generations';
import { getHeadshot } from '../adapters/headshots/records';
import { getHeadshotVersion } from '../adapters/headshots/versions';
import { imageProvider, ProviderThrottledError, type ImageProvider } from '../adapters/image-providers';
import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { returnPermit } from '../adapters/provider-queue/leases';
import { putPartialImage } from '../adapters/partial-images';
import { getObjectBytes, putObject } from '../adapters/storage';
import { editPrompt } from '../domain/edit-prompts';
import type { EditOrder } from '../domain/edits';
import { GenerationClosedError, ReferenceMissingError } from '../domain/generation-errors';
import { providerImageKey } from '../domain/object-keys';
import { slotPrompt, slotVariation } from '../domain/prompts';
import type { Background, Style } from '../domain/styles';
import { countProviderCall } from './likeness-cap-before-call';
import { loadReferences } from './reference-descriptor';

/**
 * One provider call (docs/architecture.md §4): one Map iteration = one slot = ONE call to the image provider, made
 * under a lease of the provider queue and counted against the likeness cap.
 */

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

/** One slot's call (CallProvider's input). */
export interface ProviderCall {
  generationId: string;
  userId: string;
  slot: number;
  style: Style;
  background: Background;
  /**
   * The set's look (BuildPrompt, domain/prompts.ts `buildPrompt`): the call adds the slot's variation
   * (`slotPrompt`), so the six calls of a set differ while the workflow's state carries one prompt.
   */
  prompt: string;
  /** The normalized reference photos' keys in the uploads bucket, best first. */
  references: readonly string[];
  /** The lease the provider queue admitted the call with; absent in executions started before it was passed. */
  leaseId?: string;
}

/** What a provider call needs from the outside world: the generation, the photos, the provider, the queue's lease. */
export interface CallProviderPorts {
  requireGeneration: (sub: string, id: string) => Promise<GenerationRecord>;
  /** A reference photo's bytes from the uploads bucket; `undefined` when it is gone. */
  getReferenceBytes: (key: string) => Promise<Buffer | undefined>;
  /** The likeness cap right before the call (use-cases/likeness-cap-before-call.ts). */
  countProviderCall: (generation: GenerationRecord) => Promise<void>;
  imageProvider: () => ImageProvider;
  /** Writes the image's bytes to the results bucket. */
  putResult: (key: string, bytes: Buffer) => Promise<void>;
  returnPermit: (leaseId: string) => Promise<boolean>;
  wakeDispatcher: typeof wakeDispatcher;
  /** The headshot an edit names (its files' keys); `undefined` when it is gone. */
  getHeadshot: (sub: string, id: string) => Promise<StoredFiles | undefined>;
  /** The version an edit names as its source; `undefined` when it is gone. */
  getHeadshotVersion: (
    sub: string,
    headshotId: string,
    versionId: string,
  ) => Promise<StoredFiles | undefined>;
  /** A stored file's bytes from the results bucket; `undefined` when it is gone. */
  getResultBytes: (key: string) => Promise<Buffer | undefined>;
  /** Keeps an edit's latest partial image (adapters/partial-images.ts; the generation view presigns it). */
  putPartialImage: typeof putPartialImage;
}

/** The keys of a headshot's (or a version's) files: the square, and the original when it has variants. */
interface StoredFiles {
  imageKey: string;
  variants?: { original: { key: string } };
}

const adapters: CallProviderPorts = {
  requireGeneration,
  getReferenceBytes: (key) => getObjectBytes('uploads', key),
  countProviderCall: (generation) => countProviderCall(generation),
  imageProvider,
  putResult: (key, bytes) => putObject('results', key, bytes, 'application/octet-stream'),
  returnPermit: (leaseId) => returnPermit(leaseId),
  wakeDispatcher,
  getHeadshot,
  getHeadshotVersion,
  getResultBytes: (key) => getObjectBytes('results', key),
  putPartialImage,
};

/**
 * The image an edit sends the provider (issue 36): the stored ORIGINAL file (the provider's whole image, as saved)
 * of the version it names, or of the headshot itself; the square for a headshot saved before there were variants.
 *
 * @throws {ReferenceMissingError} the headshot, the version or its file is gone (deleted meanwhile): no call is made
 *   and the slot is refunded, as for a reference photo that vanished
 */
async function editSource(sub: string, order: EditOrder, ports: CallProviderPorts): Promise<Buffer> {
  const source = order.sourceVersionId
    ? await ports.getHeadshotVersion(sub, order.headshotId, order.sourceVersionId)
    : await ports.getHeadshot(sub, order.headshotId);
  const bytes = source && (await ports.getResultBytes(source.variants?.original.key ?? source.imageKey));
  if (!bytes) throw new ReferenceMissingError(`The headshot to edit (${order.headshotId}) is gone`);
  return bytes;
}

/**
 * Workflow task CallProvider: reads the generation and the reference photos, counts the call against the likeness
 * cap, asks the provider for one image (the look's prompt with the slot's variation, domain/prompts.ts) and writes
 * its bytes, untouched, to the results bucket's `work/` prefix (domain/object-keys.ts `providerImageKey`), which no
 * customer-facing function may read. It does no image work of its own: FinishHeadshot does the likeness check and the
 * encodes.
 *
 * Safe to run again for the same slot: a saved slot returns its headshot without calling the provider. Once the image
 * is stored, the lease's permit goes back and the dispatcher is woken. A 429 is an expected answer, not a failure:
 * it comes back as `outcome: 'throttled'` with the wait the provider named, and the slot goes back in the queue.
 *
 * @throws {GenerationNotFoundError} the generation is gone (no call made)
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; no call made)
 * @throws {ReferenceMissingError} a reference photo is gone, or the headshot an edit sends (not retried; no call made)
 * @throws {LikenessStoppedError | ProviderCallCapError} the likeness cap: no call is made, the slot is refunded
 * @throws {ProviderUnavailableError | ProviderTimeoutError | ProviderRejectedError | ProviderInvalidOutputError |
 *   ProviderMisconfiguredError} the provider's failures (domain/slot-outcomes.ts decides what follows)
 */
export async function callProvider(
  call: ProviderCall,
  ports: CallProviderPorts = adapters,
): Promise<CallProviderResult> {
  const { generationId, userId, slot } = call;
  // The generation and the references are read at once: both stand between the admission and the provider call.
  const [generation, loaded] = await Promise.allSettled([
    ports.requireGeneration(userId, generationId),
    loadReferences(call.references, ports),
  ]);
  if (generation.status === 'rejected') throw generation.reason;
  const current = generation.value;
  const answer = (outcome: CallOutcome, fields: Partial<CallProviderResult> = {}): CallProviderResult => ({
    slot,
    outcome,
    headshotId: null,
    retryAfterMs: null,
    provider: null,
    ...fields,
  });
  const existing = current.slots[String(slot)];
  if (existing) return answer('saved', { headshotId: existing });
  if (current.closedAt) throw new GenerationClosedError(`Generation ${generationId} is closed`);
  if (loaded.status === 'rejected') throw loaded.reason;
  // An edit sends the headshot itself with the edit's prompt (read before the call is counted: a gone source
  // costs no call).
  const edit = current.edit && {
    image: await editSource(userId, current.edit, ports),
    request: current.edit.request,
  };
  // The likeness cap: a stopped generation, or a day without calls left, makes no call.
  await ports.countProviderCall(current);
  const provider = ports.imageProvider();
  let image: Buffer;
  try {
    image = await provider.generate({
      prompt: edit ? editPrompt(edit.request) : slotPrompt(call.prompt, slotVariation(current, slot)),
      references: loaded.value,
      style: call.style,
      background: call.background,
      slot,
      generationId,
      resolution: current.resolution,
      ...(current.safetyIdentifier ? { safetyIdentifier: current.safetyIdentifier } : {}),
      ...(edit ? { edit, purpose: edit.request.kind === 'upscale' ? 'upscale' : 'edit' } : {}),
      // Only an edit streams its preview (docs/decisions/025-openai-parameters.md: one slot, the customer watching).
      ...(edit
        ? {
            onPartialImage: (png: Buffer, index: number) =>
              ports.putPartialImage(userId, generationId, slot, index, png),
          }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof ProviderThrottledError)) throw error;
    return answer('throttled', { retryAfterMs: error.retryAfterMs ?? null });
  }
  // Raw bytes, whatever the provider encoded: FinishHeadshot decodes them (and refuses what does not decode).
  await ports.putResult(providerImageKey(userId, generationId, slot), image);
  // The provider is done with this call: its permit goes back now, not after FinishHeadshot's likeness check and
  // encodes, so the next slot calls meanwhile (PROVIDER_MAX_CONCURRENCY counts calls at the provider). Last, so a
  // retry of this Task after a failure above still holds it.
  if (call.leaseId && (await ports.returnPermit(call.leaseId))) await ports.wakeDispatcher('permit');
  return answer('generated', { provider: provider.name });
}
