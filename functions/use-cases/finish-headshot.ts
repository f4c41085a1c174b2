import { requireGeneration, type GenerationRecord } from '../adapters/generations';
import { saveHeadshot } from '../adapters/headshots/records';
import { saveHeadshotVersion } from '../adapters/headshots/versions';
import { deleteObject, getObjectBytes } from '../adapters/storage';
import { DYNAMODB_THROTTLING_ERRORS } from '../adapters/support/dynamodb-throttling';
import { logger } from '../common/logger';
import { likenessSettings } from '../config/likeness';
import { GenerationClosedError } from '../domain/generation-errors';
import { payingTeam } from '../domain/team-seats';
import { HeadshotDeletedError, isTransparentEdit } from '../domain/headshot-versions';
import { LikenessRejectedError } from '../domain/likeness';
import { namedError } from '../domain/named-error';
import { MAX_PARTIAL_IMAGES, partialImageKey, providerImageKey } from '../domain/object-keys';
import type { Background, Style } from '../domain/styles';
import { creditsPerSlot } from './compensate-generation';
import {
  deleteHeadshotFiles,
  makeHeadshotFiles,
  storeHeadshotFiles,
  type MadeHeadshot,
  type StoredHeadshotFiles,
} from './headshot-files';
import { currentReferenceDescriptor, loadReferences, referencesNeeded } from './reference-descriptor';

/**
 * The provider's image of the slot is not in `work/` although CallProvider answered `generated` and stored it
 * (deleted by hand, a day old, or lost by the store: docs/decisions/022-missing-work-image.md): nothing can be
 * finished. Our fault, not the customer's: the slot goes back in line for one more provider call, not charged to the
 * day's count (domain/slot-outcomes.ts, domain/likeness-cap.ts), and is refunded only if that image goes missing too.
 */
export class ProviderImageMissingError extends namedError('ProviderImageMissingError') {}

/** FinishHeadshot's result, kept by the workflow at `$.call` (the shape ReleaseProviderSlot reads). */
export interface FinishHeadshotResult {
  slot: number;
  outcome: 'saved';
  /** The saved item's id: the headshot's, or for an edit (the generation's `edit`) the version's. */
  headshotId: string;
  retryAfterMs: null;
}

/** The slot to finish (FinishHeadshot's input). */
export interface SlotToFinish {
  generationId: string;
  userId: string;
  slot: number;
  style: Style;
  background: Background;
  /** The normalized reference photos' keys, read only when the reference descriptor must be recomputed. */
  references: readonly string[];
  /** The provider that made the image (`openai`, `local`), recorded on the headshot. */
  provider: string;
}

/** What finishing a headshot needs from the outside world (and the use cases it runs). */
export interface FinishHeadshotPorts {
  requireGeneration: typeof requireGeneration;
  /** The provider's image in the results bucket's `work/`; `undefined` when it is gone. */
  getProviderImage: (key: string) => Promise<Buffer | undefined>;
  deleteProviderImage: (key: string) => Promise<void>;
  saveHeadshot: typeof saveHeadshot;
  saveHeadshotVersion: typeof saveHeadshotVersion;
  /** Minimum likeness, 0-100 (config LIKENESS_THRESHOLD). */
  likenessThreshold: () => number;
  loadReferences: (keys: readonly string[]) => Promise<Buffer[]>;
  currentReferenceDescriptor: (
    generation: GenerationRecord,
    references: readonly Buffer[],
  ) => Promise<string | undefined>;
  makeHeadshotFiles: (
    image: Buffer,
    providerName: string,
    referenceDescriptor: string | undefined,
    threshold: number,
    transparent: boolean,
  ) => Promise<MadeHeadshot>;
  storeHeadshotFiles: (
    sub: string,
    generationId: string,
    slot: number,
    made: MadeHeadshot,
  ) => Promise<StoredHeadshotFiles>;
  deleteHeadshotFiles: (stored: StoredHeadshotFiles) => Promise<void>;
}

const adapters: FinishHeadshotPorts = {
  requireGeneration,
  getProviderImage: (key) => getObjectBytes('results', key),
  deleteProviderImage: (key) => deleteObject('results', key),
  saveHeadshot,
  saveHeadshotVersion,
  likenessThreshold: () => likenessSettings().LIKENESS_THRESHOLD,
  loadReferences: (keys) => loadReferences(keys),
  currentReferenceDescriptor: (generation, references) => currentReferenceDescriptor(generation, references),
  makeHeadshotFiles: (image, provider, descriptor, threshold, transparent) =>
    makeHeadshotFiles(image, provider, descriptor, threshold, transparent),
  storeHeadshotFiles: (sub, generationId, slot, made) => storeHeadshotFiles(sub, generationId, slot, made),
  deleteHeadshotFiles: (stored) => deleteHeadshotFiles(stored),
};

/** The errors the FinishHeadshot Task retries (its ASL Retry): the image must still be there for the retry. */
const RETRIED: ReadonlySet<string> = new Set(DYNAMODB_THROTTLING_ERRORS);

/**
 * FinishHeadshot (docs/architecture.md §4), after CallProvider answered `generated`: reads the provider's image (a
 * portrait canvas) from `work/<sub>/<generationId>/<slot>`, finds its face and measures its likeness to the customer,
 * makes the square JPEG with its WebP thumbnail, the 4:5 portrait and the original PNG
 * (use-cases/headshot-files.ts), stores the four only when the likeness passes, then saves the headshot item with
 * its likeness (0-100), provider, files and credits (progress +8, in one transaction). The image in `work/` is
 * deleted whenever the task ends for good (saved, rejected, refused; a failed delete is logged, the bucket's
 * lifecycle ends it in a day); only a DynamoDB throttle, which the Task retries, leaves it for the retry.
 *
 * An edit's generation (its `edit`, domain/edits.ts; issue 36) saves a VERSION of the edited headshot instead
 * (adapters/headshots/versions.ts), with the same likeness check and encodes; a transparent edit's files keep their
 * alpha channel. The gallery's counters are not touched.
 *
 * Safe to run again for the same slot: a saved slot returns its headshot (or version).
 *
 * @throws {ProviderInvalidOutputError} the provider's bytes are no image: the slot is refunded
 * @throws {ProviderImageMissingError} nothing to finish (not retried here; the slot goes back in line once, then
 *   is refunded)
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; nothing kept: files stored
 *   before the save found it closed are deleted)
 * @throws {HeadshotDeletedError} an edit's headshot was deleted meanwhile (not retried; its files are deleted, the
 *   slot refunded)
 * @throws {ReferenceMissingError} a reference photo needed to recompute the descriptor is gone (not retried)
 * @throws {LikenessRejectedError} (name `LikenessRejected`) the headshot has no face or its likeness to the
 *   customer is under the threshold: nothing is stored; the workflow puts the slot back in line once, then refunds it
 */
export async function finishHeadshot(
  input: SlotToFinish,
  ports: FinishHeadshotPorts = adapters,
): Promise<FinishHeadshotResult> {
  const workKey = providerImageKey(input.userId, input.generationId, input.slot);
  // The slot's partial images (an edit's preview, issue 36) go with the provider image: the slot is finished.
  const partialKeys = Array.from({ length: MAX_PARTIAL_IMAGES }, (_, index) =>
    partialImageKey(input.userId, input.generationId, input.slot, index),
  );
  const discard = () =>
    Promise.all([workKey, ...partialKeys].map((key) => ports.deleteProviderImage(key))).catch(
      (error: unknown) => {
        logger.warn('The provider image stays in work/ until it expires', { error: error as Error });
      },
    );
  try {
    const result = await finish(input, workKey, ports);
    await discard();
    return result;
  } catch (error) {
    if (!RETRIED.has((error as Error).name)) await discard();
    throw error;
  }
}

async function finish(
  input: SlotToFinish,
  workKey: string,
  ports: FinishHeadshotPorts,
): Promise<FinishHeadshotResult> {
  const { generationId, userId, slot } = input;
  const [current, image] = await Promise.all([
    ports.requireGeneration(userId, generationId),
    ports.getProviderImage(workKey),
  ]);
  const existing = current.slots[String(slot)];
  if (existing) return { slot, outcome: 'saved', headshotId: existing, retryAfterMs: null };
  if (current.closedAt) throw new GenerationClosedError(`Generation ${generationId} is closed`);
  if (!image) throw new ProviderImageMissingError(`No provider image at ${workKey}`);
  const started = Date.now();
  // The guarantee: a headshot that does not look like the customer is never stored. Generations prepared before
  // likeness existed skip it; a descriptor of an earlier identity model is recomputed first, never compared.
  const references = referencesNeeded(current) ? await ports.loadReferences(input.references) : [];
  const referenceDescriptor = await ports.currentReferenceDescriptor(current, references);
  let made: MadeHeadshot;
  try {
    made = await ports.makeHeadshotFiles(
      image,
      input.provider,
      referenceDescriptor,
      ports.likenessThreshold(),
      current.edit !== undefined && isTransparentEdit(current.edit.request),
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
  const stored = await ports.storeHeadshotFiles(userId, generationId, slot, made);
  let headshotId: string;
  try {
    headshotId = await saveSlot(input, current, made, stored, ports);
  } catch (error) {
    // The slot's credit was refunded while the provider worked, or the edited headshot is gone: its files must not
    // outlive it.
    if (error instanceof GenerationClosedError || error instanceof HeadshotDeletedError) {
      await ports.deleteHeadshotFiles(stored);
    }
    throw error;
  }
  logger.info(current.edit ? 'Headshot version saved' : 'Headshot saved', {
    headshotId,
    provider: input.provider,
    likeness: made.likeness,
    ms: Date.now() - started,
  });
  return { slot, outcome: 'saved', headshotId, retryAfterMs: null };
}

/** Saves the slot's item: a version of the edited headshot for an edit's generation, else a gallery headshot. */
async function saveSlot(
  input: SlotToFinish,
  current: GenerationRecord,
  made: MadeHeadshot,
  stored: StoredHeadshotFiles,
  ports: FinishHeadshotPorts,
): Promise<string> {
  const common = {
    sub: input.userId,
    generationId: input.generationId,
    slot: input.slot,
    imageKey: stored.imageKey,
    thumbnailKey: stored.thumbnailKey,
    likeness: made.likeness,
    provider: input.provider,
    variants: stored.variants,
    creditsUsed: creditsPerSlot(current),
  };
  if (current.edit) {
    const { versionId } = await ports.saveHeadshotVersion({
      ...common,
      headshotId: current.edit.headshotId,
      ...(current.edit.sourceVersionId === undefined
        ? {}
        : { sourceVersionId: current.edit.sourceVersionId }),
      edit: current.edit.request,
      transparent: made.transparent,
    });
    return versionId;
  }
  const { headshotId } = await ports.saveHeadshot({
    ...common,
    style: input.style,
    background: input.background,
    // The choices its prompt used (domain/prompts.ts): a regeneration of it keeps them.
    ...(current.outfit ? { outfit: current.outfit } : {}),
    ...(current.variation === undefined ? {} : { variation: current.variation }),
    resolution: current.resolution,
    // Whose headshot it is for the SPA (a team's edits, its share): from the generation's record, never the client.
    ...teamOf(current),
  });
  return headshotId;
}

/** `{ teamId }` when a team paid the generation (domain/team-seats.ts `payingTeam`), else nothing. */
function teamOf(generation: GenerationRecord): { teamId?: string } {
  const teamId = payingTeam(generation.payer);
  return teamId === undefined ? {} : { teamId };
}
