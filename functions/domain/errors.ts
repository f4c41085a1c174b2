/**
 * Named errors of the use cases (functions/use-cases): each says what went wrong in the domain's words and carries
 * what its answer needs. The API maps every one to its HTTP form in ONE table (functions/http/errors.ts); the use
 * cases never speak HTTP. The docstrings give that form.
 */

import { PHOTO_CHECK_MESSAGES } from './photo-checks';
import { UPLOAD_RETENTION_DAYS } from './retention';

/** A named error class whose message is always the same (a sentence for a person). */
function fixedMessageError(name: string, message: string) {
  return class extends Error {
    override readonly name = name;
    constructor() {
      super(message);
    }
  };
}

/**
 * 400 `HIGH_RESOLUTION_UNAVAILABLE`: the high-resolution option was asked for while the configured image model
 * cannot make it (domain/headshot-variants.ts `takesHighResolution`); nothing is spent.
 */
export class HighResolutionUnavailableError extends Error {
  override readonly name = 'HighResolutionUnavailableError';
  constructor() {
    super('High resolution is not available right now. Please generate at standard resolution.');
  }
}

/** 400 `INVALID_REFERENCE`: photo `index` (0-based) is not one of the caller's uploads (never says whose it is). */
export class ForeignUploadError extends Error {
  override readonly name = 'ForeignUploadError';
  constructor(readonly index: number) {
    super(`Photo ${index + 1} is not one of your uploads.`);
  }
}

/** 400 `UPLOAD_NOT_FOUND`: photo `index` (0-based) was never uploaded, or has expired (uploads live 7 days). */
export class UploadMissingError extends Error {
  override readonly name = 'UploadMissingError';
  constructor(readonly index: number) {
    super(`Photo ${index + 1} has not finished uploading or has expired. Please upload it again.`);
  }
}

/** 400 `INVALID_UPLOAD`: photo `index` (0-based) is empty, over 10 MB, or not `image/*` (put past the POST policy). */
export class InvalidUploadError extends Error {
  override readonly name = 'InvalidUploadError';
  constructor(readonly index: number) {
    super(`Photo ${index + 1} must be an image file of at most 10 MB.`);
  }
}

/** 409 `PHOTOS_EXPIRED`: a regeneration's reference photos are no longer stored (uploads are kept 7 days). */
export const PhotosExpiredError = fixedMessageError(
  'PhotosExpiredError',
  `The photos this headshot was made from are no longer stored (uploads are kept for ${UPLOAD_RETENTION_DAYS} days). Upload them again in the generator to create new headshots.`,
);

/**
 * 409 `MIXED_PEOPLE`: the photo check calls the set `mixed_people` (domain/photo-checks.ts `mixesPeople`: its photos
 * show different people and no majority agrees), so nobody can tell which photos are the customer and no reference
 * choice is right; nothing is spent or started. The message is the check's own sentence, which asks the customer to
 * remove the photos that aren't them (docs/decisions/012-small-set-identity.md, amended by issue 33).
 */
export const MixedPeopleError = fixedMessageError('MixedPeopleError', PHOTO_CHECK_MESSAGES.mixed_people);

/** 409 `ACCOUNT_DELETING`: the account's deletion has started, so nothing new may be generated. */
export const AccountDeletingError = fixedMessageError(
  'AccountDeletingError',
  'Your account is being deleted, so no new headshots can be created.',
);

/**
 * 410 `ACCOUNT_DELETED`: the account was deleted (`DELETE /api/me`) while the caller's token is still valid (ID and
 * access tokens live up to an hour); nothing costly may be started for it any more.
 */
export const AccountDeletedError = fixedMessageError('AccountDeletedError', 'This account has been deleted.');

/** 502 `WORKFLOW_START_FAILED`: StartExecution failed; the generation was compensated (`credits` refunded). */
export class WorkflowStartFailedError extends Error {
  override readonly name = 'WorkflowStartFailedError';
  constructor(readonly credits: number) {
    super(
      `We couldn't start creating your headshots. Your ${credits} ${credits === 1 ? 'credit has' : 'credits have'} been refunded. Please try again.`,
    );
  }
}

/**
 * 409 `GENERATION_IN_PROGRESS` with details `{ generationId }`: deleting the user's photos ("delete my data") or
 * their account while a generation of theirs may still be running (nothing was deleted).
 */
export class GenerationInProgressError extends Error {
  override readonly name = 'GenerationInProgressError';
  constructor(
    readonly generationId: string,
    /** What the customer asked to delete: the message tells them to wait, then delete it. */
    what: 'photos' | 'account' = 'photos',
  ) {
    // No duration (issue 35): the time of the real image service is unmeasured, and the line may be long.
    super(
      `Your headshots are still being generated. Please wait until they are ready, then delete your ${what === 'account' ? 'account' : 'photos'}.`,
    );
  }
}

/** 404 `NOT_FOUND`: the caller has no such item (a missing one and another user's alike: never says which). */
export class ItemNotFoundError extends Error {
  override readonly name = 'ItemNotFoundError';
  constructor(message: string) {
    super(message);
  }
}

/**
 * 400 `VALIDATION_ERROR`: the caller has no user item yet and their token carries no e-mail (an access token), so
 * none can be created; the ID token a new sign-in gives carries it.
 */
export const NoEmailInTokenError = fixedMessageError(
  'NoEmailInTokenError',
  'Your sign-in token carries no e-mail address. Please sign in again.',
);

/** 502 `CHECKOUT_FAILED`: Stripe (or recording the pending purchase) failed; nothing was counted or sold. */
export const CheckoutFailedError = fixedMessageError(
  'CheckoutFailedError',
  'Failed to create checkout session',
);

/** 502 `CHECKOUT_UNAVAILABLE`: Stripe could not be reached to verify a payment. */
export const CheckoutUnavailableError = fixedMessageError(
  'CheckoutUnavailableError',
  "We couldn't check your payment right now. Please try again in a moment.",
);
