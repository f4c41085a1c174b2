import { namedError } from './named-error';

/**
 * How a generation fails (docs/product-spec.md §4; docs/architecture.md §4, §5): the codes and person-readable
 * messages of a failed generation's `error`, and the named errors the workflow's Retry/Catch match. Pure.
 */

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
  | 'LIKENESS_LIMIT'
  /** The provider kept refusing its calls (domain/provider-refusals.ts): stopped, the rest refunded, other photos asked for. */
  | 'PHOTOS_REFUSED';

/** A generation's failure as the API shows it: `message` is safe to show as is (no internals). */
export interface GenerationError {
  code: GenerationErrorCode;
  message: string;
}

const REFUNDED = 'Your credits for it have been refunded.';

/** The person-readable message of each failure code (the wizard may show it under its own toast). */
export const GENERATION_ERROR_MESSAGES: Record<
  Exclude<
    GenerationErrorCode,
    'NO_USABLE_PHOTOS' | 'LIKENESS_MISMATCH' | 'LIKENESS_LIMIT' | 'PHOTOS_REFUSED'
  >,
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

/*
 * Errors the workflow's Retry/Catch and the ASL match by name: each sets `name` explicitly so bundling or
 * minification cannot change it (docs/architecture.md §5). NoUsablePhotosError lives with the photo rules
 * (./photos.ts), which write its message.
 */

/** Every image slot failed: nothing to deliver. Caught by the workflow, which refunds all 6 credits. */
export class NoHeadshotsError extends namedError('NoHeadshotsError') {}

/**
 * The generation was already closed for new headshots (compensated after a failure, a timeout or a failed start):
 * a late slot must not save an image whose credit was refunded. Not retryable.
 */
export class GenerationClosedError extends namedError('GenerationClosedError') {}

/** The generation item does not exist (or belongs to another user). */
export class GenerationNotFoundError extends namedError('GenerationNotFoundError') {}

/**
 * A normalized reference photo vanished between PrepareReferences and a slot (the customer deleted their data
 * meanwhile): the slot makes no provider call. Not retryable.
 */
export class ReferenceMissingError extends namedError('ReferenceMissingError') {}
