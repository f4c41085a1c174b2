import { namedError } from './named-error';
import { GENERATION_COST } from './credits';

/**
 * Rules of a generation (docs/product-spec.md §2 Generator wizard, §4 Generation progress, §9; docs/architecture.md §4): what a user may ask
 * for, the states a generation goes through, how far along each state is, and what a failure is called.
 * Pure: no I/O, so the HTTP handlers, the workflow tasks and the tests share one definition.
 */

/** The three styles of docs/product-spec.md §2 step 2, as the API spells them. */
export const STYLES = ['professional', 'business-casual', 'creative'] as const;
export type Style = (typeof STYLES)[number];

/** The four backgrounds of docs/product-spec.md §2 step 3, as the API spells them. */
export const BACKGROUNDS = ['office', 'studio', 'outdoor', 'gradient'] as const;
export type Background = (typeof BACKGROUNDS)[number];

/** Headshots one generation produces: one per credit reserved (docs/architecture.md §4, "1 credit = 1 headshot"). */
export const HEADSHOTS_PER_GENERATION = GENERATION_COST;

/** The image slots of a generation, `[0, 1, …, 5]`: the items the workflow's Map iterates over. */
export const SLOTS: readonly number[] = Array.from({ length: HEADSHOTS_PER_GENERATION }, (_, i) => i);

/** Photos one upload request may presign, and one generation may reference (docs/product-spec.md §5: "capped at 10"). */
export const MAX_UPLOAD_FILES = 10;
/** Largest accepted upload, in bytes: 10 MiB (docs/product-spec.md §5: 10*1024*1024). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Reference photos handed to the image provider: the first 3 usable ones (docs/product-spec.md §9). */
export const MAX_REFERENCE_PHOTOS = 3;
/**
 * Largest decoded photo, in pixels (width × height). 50 MP admits every phone camera (48 MP sensors) and stops
 * "pixel bombs": tiny files that claim gigapixel dimensions and would exhaust the task's memory when decoded.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Shortest accepted side of a photo, in pixels: anything smaller cannot give a 1024 px headshot a usable face. */
export const MIN_PHOTO_SIDE = 256;
/** Long edge of the normalized reference copies, in pixels. */
export const REFERENCE_MAX_SIDE = 1024;
/** Side of every headshot, in pixels (docs/product-spec.md §9: 1024x1024). */
export const HEADSHOT_SIDE = 1024;
/** Longest side of a headshot's thumbnail, in pixels. */
export const THUMBNAIL_SIDE = 384;
/**
 * The name of the offline image provider (functions/adapters/image-providers/local.ts): its headshots are previews,
 * composites of the customer's own photos, and say so (the API's `preview`, a "PREVIEW" mark in the image).
 */
export const LOCAL_PROVIDER = 'local';

/**
 * Where a generation is, for programs:
 * - `queued`: credits reserved, the workflow not yet running;
 * - `running`: the workflow is preparing photos or generating headshots;
 * - `succeeded`: all 6 headshots saved;
 * - `partial`: some headshots saved, one credit refunded per missing headshot;
 * - `failed`: nothing delivered, every credit refunded, `error` says why.
 */
export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';

/** Statuses a generation never leaves: the wizard stops polling on these. */
export const TERMINAL_STATUSES: readonly GenerationStatus[] = ['succeeded', 'partial', 'failed'];

/** True for `succeeded`, `partial` and `failed`. */
export function isTerminal(status: GenerationStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * What the workflow is doing: `queued` → `preparing` (checking and normalizing photos) → `generating` (the image
 * provider at work, headshots saved one by one) → `done`, or `failed` from any stage.
 */
export type GenerationStage = 'queued' | 'preparing' | 'generating' | 'done' | 'failed';

/**
 * Progress points, in percent, written to the generation item as the workflow moves (docs/product-spec.md §4 "Generation
 * progress", without its artificial pauses). The wizard words them: under 30 'Analyzing your photos...', 30 to
 * under 90 'Creating professional headshots...', 90 and above 'Almost done...'.
 */
export const PROGRESS = {
  /** Credits reserved, generation created (spec: "credits are deducted first (progress 5)"). */
  queued: 5,
  /** PrepareReferences started. */
  preparing: 10,
  /** Photos checked and normalized. */
  prepared: 30,
  /** Prompt built; the provider calls start. */
  generating: 45,
  /** Added per headshot saved: 45 + 6 × 8 = 93, so the last one saved reads 'Almost done...'. */
  perHeadshot: 8,
  /** Finished (succeeded or partial). */
  done: 100,
} as const;

/** The idempotency reference of the refund of one undelivered slot: `<generationId>#slot-<n>`. */
export function slotRefundRef(generationId: string, slot: number): string {
  return `${generationId}#slot-${slot}`;
}

/**
 * Headshots (and credits) of a one-slot generation: "Regenerate (1 credit)" makes one new headshot with the same
 * style, background and references through the same workflow (docs/architecture.md §4, "1 credit = 1 headshot").
 */
export const REGENERATE_SLOTS: readonly number[] = [0];

/** The slots of a generation of `slotCount` slots (6, or 1 for a regeneration) that produced no headshot. */
export function missingSlots(
  savedSlots: Iterable<number>,
  { slotCount = HEADSHOTS_PER_GENERATION }: { slotCount?: number } = {},
): number[] {
  const saved = new Set(savedSlots);
  return SLOTS.slice(0, slotCount).filter((slot) => !saved.has(slot));
}

/**
 * The status a generation ends with once its images are in: `succeeded` with every headshot, `partial` with
 * some, `failed` with none.
 */
export function finalStatus(
  savedCount: number,
  { expected = HEADSHOTS_PER_GENERATION }: { expected?: number } = {},
): 'succeeded' | 'partial' | 'failed' {
  if (savedCount >= expected) return 'succeeded';
  return savedCount > 0 ? 'partial' : 'failed';
}

/** Stable codes of a generation's `error`, for programs; each has a message written for a person. */
export type GenerationErrorCode =
  | 'NO_USABLE_PHOTOS'
  | 'PROVIDER_FAILED'
  | 'TIMED_OUT'
  | 'START_FAILED'
  | 'GENERATION_FAILED'
  /** Its headshots kept failing the likeness check: stopped, the rest refunded, other photos asked for. */
  | 'LIKENESS_MISMATCH'
  /** The day's provider calls (the likeness cap) ran out: stopped, the rest refunded. */
  | 'LIKENESS_LIMIT';

/** A generation's failure as the API shows it: `message` is safe to show as is (no internals). */
export interface GenerationError {
  code: GenerationErrorCode;
  message: string;
}

const REFUNDED = 'Your credits for it have been refunded.';

/** The person-readable message of each failure code (the wizard may show it under its own toast). */
export const GENERATION_ERROR_MESSAGES: Record<
  Exclude<GenerationErrorCode, 'NO_USABLE_PHOTOS' | 'LIKENESS_MISMATCH' | 'LIKENESS_LIMIT'>,
  string
> = {
  PROVIDER_FAILED: `We couldn't create your headshots this time: the image service did not deliver any. ${REFUNDED}`,
  TIMED_OUT: `Your headshots took too long to create, so we stopped. ${REFUNDED}`,
  START_FAILED: `We couldn't start creating your headshots. ${REFUNDED}`,
  GENERATION_FAILED: `Something went wrong while creating your headshots. ${REFUNDED}`,
};

/**
 * Error names (Step Functions `Error`, i.e. the thrown error's `name`) that carry a message written for the user,
 * mapped to their code. Every other error gets a generic message, so no internal text ever reaches the UI.
 */
const USER_FACING_ERRORS: Record<string, GenerationErrorCode> = {
  NoUsablePhotosError: 'NO_USABLE_PHOTOS',
};

/**
 * Turns a workflow failure (`{ Error, Cause }` as Step Functions' Catch delivers it) into the generation's error.
 *
 * @param error the error name (`States.Timeout`, `NoUsablePhotosError`, `Sandbox.Timedout`, …)
 * @param cause the Cause text: for a Lambda error, the JSON `{ errorType, errorMessage, trace }`
 */
export function generationErrorOf(error: string | undefined, cause: string | undefined): GenerationError {
  const code = error ? USER_FACING_ERRORS[error] : undefined;
  if (code) {
    const message = errorMessageOf(cause);
    if (message) return { code, message };
  }
  if (error === 'NoHeadshotsError')
    return { code: 'PROVIDER_FAILED', message: GENERATION_ERROR_MESSAGES.PROVIDER_FAILED };
  if (error === 'States.Timeout' || error === 'Sandbox.Timedout')
    return { code: 'TIMED_OUT', message: GENERATION_ERROR_MESSAGES.TIMED_OUT };
  return { code: 'GENERATION_FAILED', message: GENERATION_ERROR_MESSAGES.GENERATION_FAILED };
}

/** The `errorMessage` of a Lambda error Cause (JSON), or the Cause itself when it is plain text. */
function errorMessageOf(cause: string | undefined): string | undefined {
  if (!cause) return undefined;
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' ? parsed.errorMessage : undefined;
  } catch {
    return cause;
  }
}

/** Why one photo could not be used, for programs. */
export type PhotoProblem =
  | 'empty'
  | 'too-large'
  | 'not-an-image'
  | 'too-many-pixels'
  | 'too-small'
  | 'missing'
  | 'no-face'
  | 'multiple-faces'
  | 'different-person'
  | 'duplicate';

/** How each {@link PhotoProblem} reads in 'None of your photos could be used: …'. */
export const PHOTO_PROBLEM_TEXT: Record<PhotoProblem, string> = {
  empty: 'is empty',
  'too-large': 'is larger than 10 MB',
  'not-an-image': 'is not an image we can read (use JPG, PNG, WebP or HEIC)',
  'too-many-pixels': 'has more than 50 megapixels',
  'too-small': `is too small (under ${MIN_PHOTO_SIDE} pixels on a side)`,
  missing: 'was not uploaded completely',
  'no-face': 'has no face we could find',
  'multiple-faces': 'shows more than one person',
  'different-person': 'shows a different person from your other photos',
  duplicate: 'is the same picture as another of your photos',
};

/**
 * The reason shown when no photo is usable, e.g. 'None of your photos could be used: photo 1 is empty; photo 2 is
 * not an image we can read (use JPG, PNG, WebP or HEIC).' Photos are numbered from 1, in upload order.
 */
export function noUsablePhotosMessage(problems: readonly { index: number; problem: PhotoProblem }[]): string {
  const parts = problems.map(({ index, problem }) => `photo ${index + 1} ${PHOTO_PROBLEM_TEXT[problem]}`);
  return `None of your photos could be used: ${parts.join('; ')}. Please upload clear photos of yourself.`;
}

/*
 * Errors the workflow's Retry/Catch and the ASL match by name: each sets `name` explicitly so bundling or
 * minification cannot change it (docs/architecture.md §5).
 */

/** PrepareReferences found no usable photo; `message` is written for the user (see {@link noUsablePhotosMessage}). */
export class NoUsablePhotosError extends namedError('NoUsablePhotosError') {}

/** Every image slot failed: nothing to deliver. Caught by the workflow, which refunds all 6 credits. */
export class NoHeadshotsError extends namedError('NoHeadshotsError') {}

/**
 * The generation was already closed for new headshots (compensated after a failure, a timeout or a failed start):
 * a late slot must not save an image whose credit was refunded. Not retryable.
 */
export class GenerationClosedError extends namedError('GenerationClosedError') {}

/** The generation item does not exist (or belongs to another user). */
export class GenerationNotFoundError extends namedError('GenerationNotFoundError') {}
