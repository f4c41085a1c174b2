import { requireGeneration } from '../adapters/generations';
import { DYNAMODB_THROTTLING_ERRORS } from '../adapters/support/dynamodb-throttling';
import { saveHeadshot } from '../adapters/headshots/records';
import { likenessSettings } from '../config/likeness';
import { deleteObject, getObjectBytes } from '../adapters/storage';
import { GenerationClosedError } from '../domain/generation-errors';
import { LikenessRejectedError } from '../domain/likeness';
import { namedError } from '../domain/named-error';
import { providerImageKey } from '../domain/object-keys';
import { creditsPerSlot } from '../use-cases/compensate-generation';
import {
  deleteHeadshotFiles,
  makeHeadshotFiles,
  storeHeadshotFiles,
  type MadeHeadshot,
} from '../use-cases/headshot-files';
import { logger } from '../common/logger';
import { finishHeadshotInput } from './inputs/finish-headshot';
import { currentReferenceDescriptor, referencesNeeded } from './reference-descriptor';
import { loadReferences } from './reference-bytes';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * The provider's image of the slot is not in `work/` although CallProvider answered `generated` (deleted by hand, or
 * a day old): nothing can be finished. Not retried: the slot is refunded.
 */
export class ProviderImageMissingError extends namedError('ProviderImageMissingError') {}

/** FinishHeadshot's result, kept by the workflow at `$.call` (the shape ReleaseProviderSlot reads). */
export interface FinishHeadshotResult {
  slot: number;
  outcome: 'saved';
  headshotId: string;
  retryAfterMs: null;
}

/** The errors the FinishHeadshot Task retries (its ASL Retry): the image must still be there for the retry. */
const RETRIED: ReadonlySet<string> = new Set(DYNAMODB_THROTTLING_ERRORS);

/** Removes the slot's raw provider image; a failure is logged, not thrown (the bucket's lifecycle ends it in a day). */
async function discardProviderImage(key: string): Promise<void> {
  await deleteObject('results', key).catch((error: unknown) => {
    logger.warn('The provider image stays in work/ until it expires', { error: error as Error });
  });
}

/**
 * Workflow task FinishHeadshot (function `generation-finish-headshot`, 2 GB), after CallProvider answered
 * `generated` (docs/architecture.md §4): reads the provider's image (a portrait canvas) from
 * `work/<sub>/<generationId>/<slot>`, decodes it once, finds its face and measures its likeness to the customer
 * (the original's PNG encodes meanwhile), cuts and encodes from those pixels the face-centred 1024×1024 square JPEG
 * (`results/<sub>/<generationId>/<slot>.jpg`) with its WebP thumbnail, the 4:5 portrait JPEG and the original PNG
 * (use-cases/headshot-files.ts), stores the four only when the likeness passes, then saves the headshot item, with its
 * likeness (0-100), provider, files and credits, and moves progress up by 8 in one transaction. The image in `work/` is deleted whenever the task ends for good (saved,
 * rejected, refused); only a DynamoDB throttle, which the Task retries, leaves it for the retry.
 *
 * Safe to run again for the same slot: a saved slot returns its headshot.
 *
 * Input `{ generationId, userId, slot, style, background, references, provider }` → output {@link FinishHeadshotResult}.
 *
 * @throws {ProviderInvalidOutputError} the provider's bytes are no image: the slot is refunded
 * @throws {ProviderImageMissingError} nothing to finish (not retried; the slot is refunded)
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; nothing kept)
 * @throws {ReferenceMissingError} a reference photo needed to recompute the descriptor is gone (not retried)
 * @throws {LikenessRejectedError} (name `LikenessRejected`) the headshot has no face or its likeness to the
 *   customer is under LIKENESS_THRESHOLD: nothing is stored; the slot goes back in line once (domain/slot-outcomes.ts),
 *   then is refunded — or at once when the generation's failed checks reach the cap (use-cases/likeness-cap.ts)
 */
export const handler = withLambdaContext(async (event: unknown): Promise<FinishHeadshotResult> => {
  const input = finishHeadshotInput.parse(event);
  const { generationId, userId, slot } = input;
  const workKey = providerImageKey(userId, generationId, slot);
  try {
    const result = await finish(input, workKey);
    await discardProviderImage(workKey);
    return result;
  } catch (error) {
    if (!RETRIED.has((error as Error).name)) await discardProviderImage(workKey);
    throw error;
  }
}, workflowKeys);

async function finish(
  input: ReturnType<typeof finishHeadshotInput.parse>,
  workKey: string,
): Promise<FinishHeadshotResult> {
  const { generationId, userId, slot } = input;
  const [current, image] = await Promise.all([
    requireGeneration(userId, generationId),
    getObjectBytes('results', workKey),
  ]);
  const existing = current.slots[String(slot)];
  if (existing) return { slot, outcome: 'saved', headshotId: existing, retryAfterMs: null };
  if (current.closedAt) throw new GenerationClosedError(`Generation ${generationId} is closed`);
  if (!image) throw new ProviderImageMissingError(`No provider image at ${workKey}`);
  const started = Date.now();
  // The guarantee: a headshot that does not look like the customer is never stored (LikenessRejected → the
  // workflow generates the slot once more, then refunds it). Generations prepared before likeness existed skip it.
  // A descriptor of an earlier identity model is recomputed from the references first, never compared.
  const references = referencesNeeded(current) ? await loadReferences(input.references) : [];
  const referenceDescriptor = await currentReferenceDescriptor(current, references);
  let made: MadeHeadshot;
  try {
    made = await makeHeadshotFiles(
      image,
      input.provider,
      referenceDescriptor,
      likenessSettings().LIKENESS_THRESHOLD,
    );
  } catch (error) {
    if (error instanceof LikenessRejectedError) {
      logger.warn('Headshot rejected: it does not look like the customer', {
        provider: input.provider,
        error,
      });
    }
    throw error;
  }
  const stored = await storeHeadshotFiles(userId, generationId, slot, made);
  const { imageKey, thumbnailKey } = stored;
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
      likeness: made.likeness,
      provider: input.provider,
      variants: stored.variants,
      resolution: current.resolution,
      creditsUsed: creditsPerSlot(current),
    }));
  } catch (error) {
    if (error instanceof GenerationClosedError) {
      // The slot's credit was refunded while the provider worked: its files must not outlive it.
      await deleteHeadshotFiles(stored);
    }
    throw error;
  }
  logger.info('Headshot saved', {
    headshotId,
    provider: input.provider,
    likeness: made.likeness,
    ms: Date.now() - started,
  });
  return { slot, outcome: 'saved', headshotId, retryAfterMs: null };
}
