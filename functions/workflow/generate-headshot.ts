import { requireGeneration } from '../adapters/generations';
import { saveHeadshot } from '../adapters/headshots/records';
import {
  imageProvider,
  ProviderInvalidOutputError,
  ProviderThrottledError,
} from '../adapters/image-providers';
import {
  decodeHeadshot,
  encodeHeadshotImage,
  encodeHeadshotThumbnail,
  type HeadshotRaster,
} from '../adapters/images';
import { requireLikeness } from '../adapters/vision/likeness';
import { likenessSettings } from '../config/likeness';
import { deleteObject, getObjectBytes, putObject } from '../adapters/storage';
import { GenerationClosedError } from '../domain/generation';
import { admitProviderCall } from '../use-cases/likeness-slot-gate';
import { headshotImageKey, headshotThumbnailKey } from '../domain/object-keys';
import { logger } from '../common/logger';
import { generateHeadshotInput } from './inputs/generate-headshot';
import { currentReferenceDescriptor } from './reference-descriptor';
import { loadSecrets } from '../common/secrets';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/** Thrown when a normalized reference vanished between PrepareReferences and a slot (not retryable). */
export class ReferenceMissingError extends Error {
  override readonly name = 'ReferenceMissingError';
}

/** The normalized reference photos' bytes, in order. */
function loadReferences(keys: readonly string[]): Promise<Buffer[]> {
  return Promise.all(
    keys.map(async (key) => {
      const bytes = await getObjectBytes('uploads', key);
      if (!bytes) throw new ReferenceMissingError(`Reference ${key} is missing`);
      return bytes;
    }),
  );
}

/**
 * Workflow task GenerateHeadshot (function `generation-generate-headshot`), one Map iteration = one slot = ONE
 * provider call: asks the provider for one image, stores `results/<sub>/<generationId>/<slot>.jpg` (1024×1024 JPEG)
 * and its WebP thumbnail (≤ 384 px), then saves the headshot item, with its likeness (0-100) to the customer, and
 * moves progress up by 8 in one transaction.
 * Safe to run again for the same slot: a saved slot returns its headshot without calling the provider.
 *
 * Runs only with a lease from the admission point (AcquireProviderSlot); ReleaseProviderSlot follows it whatever
 * happens. A 429 is an expected answer, not a failure: it comes back as `outcome: 'throttled'` with the wait the
 * provider named, and the slot goes back in line.
 *
 * Input `{ generationId, userId, slot, style, background, prompt, references }` → output `{ slot, outcome: 'saved' |
 * 'throttled', headshotId: string | null, retryAfterMs: number | null }`.
 *
 * @throws {ProviderUnavailableError | ProviderTimeoutError} back in line a bounded number of times
 *   (domain/slot-outcomes.ts)
 * @throws {ProviderRejectedError | ProviderInvalidOutputError} refused or unusable: the slot is refunded
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; nothing saved)
 * @throws {ReferenceMissingError} a reference photo is gone (not retried)
 * @throws {LikenessStoppedError | ProviderCallCapError} the likeness cap: the generation was stopped, or the
 *   account's provider calls for the day are used up — no call is made, the slot is refunded
 * @throws {LikenessRejectedError} (name `LikenessRejected`) the headshot has no face or its likeness to the
 *   customer is under LIKENESS_THRESHOLD: nothing is stored; the slot goes back in line once (domain/slot-outcomes.ts),
 *   then is refunded — or at once when the generation's failed checks reach the cap (use-cases/likeness-cap.ts)
 */
export const handler = withLambdaContext(async (event: unknown) => {
  await loadSecrets();
  const input = generateHeadshotInput.parse(event);
  const { generationId, userId, slot } = input;
  // The generation and the references are read at once: both stand between the admission and the provider call.
  const [generation, loaded] = await Promise.allSettled([
    requireGeneration(userId, generationId),
    loadReferences(input.references),
  ]);
  if (generation.status === 'rejected') throw generation.reason;
  const current = generation.value;
  const existing = current.slots[String(slot)];
  if (existing) return { slot, outcome: 'saved', headshotId: existing, retryAfterMs: null };
  if (current.closedAt) throw new GenerationClosedError(`Generation ${generationId} is closed`);
  if (loaded.status === 'rejected') throw loaded.reason;
  const references = loaded.value;
  // The likeness cap: a stopped generation, or a day without calls left, makes no call.
  await admitProviderCall(current);
  const provider = imageProvider();
  const started = Date.now();
  let image: Buffer;
  try {
    image = await provider.generate({
      prompt: input.prompt,
      references,
      style: input.style,
      background: input.background,
      slot,
      generationId,
    });
  } catch (error) {
    if (!(error instanceof ProviderThrottledError)) throw error;
    return { slot, outcome: 'throttled', headshotId: null, retryAfterMs: error.retryAfterMs ?? null };
  }
  let raster: HeadshotRaster;
  try {
    raster = await decodeHeadshot(image);
  } catch (error) {
    throw new ProviderInvalidOutputError(
      `The ${provider.name} provider returned an undecodable image: ${String(error)}`,
    );
  }
  // The guarantee: a headshot that does not look like the customer is never stored (LikenessRejected → the
  // workflow generates the slot once more, then refunds it). Generations prepared before likeness existed skip it.
  // The likeness starts first: its pixels go ahead of the two encodes in sharp's queue, so the face models (the
  // longest step) start as soon as possible, and the encodes run beside them.
  // A descriptor of an earlier identity model is recomputed from the references first, never compared.
  const referenceDescriptor = await currentReferenceDescriptor(current, references);
  const likenessCheck = referenceDescriptor
    ? requireLikeness(raster, referenceDescriptor, likenessSettings().LIKENESS_THRESHOLD)
    : Promise.resolve(undefined);
  const [fullSize, thumbnail, likeness] = await Promise.allSettled([
    encodeHeadshotImage(raster),
    encodeHeadshotThumbnail(raster),
    likenessCheck,
  ]);
  if (likeness.status === 'rejected') {
    logger.warn('Headshot rejected: it does not look like the customer', {
      provider: provider.name,
      error: likeness.reason as Error,
    });
    throw likeness.reason;
  }
  if (fullSize.status === 'rejected') throw fullSize.reason;
  if (thumbnail.status === 'rejected') throw thumbnail.reason;
  const files = { image: fullSize.value, thumbnail: thumbnail.value };
  const imageKey = headshotImageKey(userId, generationId, slot);
  const thumbnailKey = headshotThumbnailKey(userId, generationId, slot);
  await Promise.all([
    putObject('results', imageKey, files.image, 'image/jpeg'),
    putObject('results', thumbnailKey, files.thumbnail, 'image/webp'),
  ]);
  let headshotId: string;
  try {
    ({ headshotId } = await saveHeadshot({
      sub: userId,
      generationId,
      slot,
      style: input.style,
      background: input.background,
      imageKey,
      thumbnailKey,
      likeness: likeness.value,
      provider: provider.name,
    }));
  } catch (error) {
    if (error instanceof GenerationClosedError) {
      // The slot's credit was refunded while the provider worked: its files must not outlive it.
      await Promise.all([deleteObject('results', imageKey), deleteObject('results', thumbnailKey)]).catch(
        () => undefined,
      );
    }
    throw error;
  }
  logger.info('Headshot saved', {
    headshotId,
    provider: provider.name,
    likeness: likeness.value,
    ms: Date.now() - started,
  });
  return { slot, outcome: 'saved', headshotId, retryAfterMs: null };
}, workflowKeys);
