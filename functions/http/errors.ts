import type { ApiErrorBody } from '../contracts';
import { InsufficientCreditsError, UserNotFoundError } from '../domain/credits';
import {
  AccountDeletedError,
  AccountDeletingError,
  CheckoutFailedError,
  CheckoutUnavailableError,
  ForeignUploadError,
  HighResolutionUnavailableError,
  GenerationInProgressError,
  InvalidUploadError,
  ItemNotFoundError,
  MixedPeopleError,
  NoEmailInTokenError,
  PhotosExpiredError,
  UploadMissingError,
  WorkflowStartFailedError,
} from '../domain/errors';
import { InvalidCursorError } from '../domain/gallery';
import { PhotosDontMatchError } from '../domain/likeness-cap';
import { PhotosRefusedError } from '../domain/provider-refusals';
import { QuotaExceededError } from '../domain/quotas';
import { PurchaseNotFoundError } from '../domain/reversals';
import { TeamError, type TeamErrorCode } from '../domain/team-errors';

export type { ApiErrorBody };

/** An error a handler throws to answer with a given HTTP status; anything else becomes a 500. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra response headers (e.g. `Retry-After` on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400: the request body, query or path did not pass validation. */
export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, 'VALIDATION_ERROR', message, details);
/** 401: no valid Cognito JWT. */
export const unauthorized = (message = 'Please sign in to continue.') =>
  new HttpError(401, 'UNAUTHORIZED', message);
/** 404: the item does not exist or belongs to someone else (never say which). */
export const notFound = (message = 'Not found.') => new HttpError(404, 'NOT_FOUND', message);
/** 409: the request conflicts with the item's current state. */
export const conflict = (message: string) => new HttpError(409, 'CONFLICT', message);

type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;
interface ErrorMapping<E extends Error = Error> {
  error: ErrorClass<E>;
  toHttp: (error: E) => HttpError;
}
const map = <E extends Error>(error: ErrorClass<E>, toHttp: (error: E) => HttpError): ErrorMapping =>
  ({ error, toHttp }) as unknown as ErrorMapping;
/** The common case: a fixed status and code, the error's own message (written for a person). */
const as = (status: number, code: string) => (error: Error) => new HttpError(status, code, error.message);

/**
 * The status of each team error's code (docs/teams.md "Errors"); the error carries its code and details. A non-member
 * always gets TEAM_NOT_FOUND, never TEAM_FORBIDDEN.
 */
const TEAM_STATUS: Record<TeamErrorCode, number> = {
  TEAM_NOT_FOUND: 404,
  TEAM_FORBIDDEN: 403,
  TEAM_MEMBER_NOT_FOUND: 404,
  TEAM_OWNER_CANNOT_LEAVE: 409,
  TEAM_DOMAIN_NOT_ALLOWED: 400,
  INVITE_NOT_FOUND: 404,
  INVITE_EXPIRED: 410,
  INVITE_USED_UP: 410,
  INVITE_REVOKED: 410,
  INVITE_WRONG_DOMAIN: 403,
  INVITE_WRONG_ADDRESS: 403,
  INVITATION_NOT_FOUND: 404,
  EMAIL_NOT_VERIFIED: 403,
  LOOK_LOCKED: 400,
  TEAM_ALLOWANCE_USED: 409,
  TEAM_NO_SEATS: 402,
  TEAM_NO_DOMAINS: 400,
  TOO_MANY_INVITE_LINKS: 409,
  TOO_MANY_INVITEES: 400,
  INVITATION_SEND_LIMIT: 409,
  INVITATION_NOT_SENT: 502,
  NOT_A_TEAM_HEADSHOT: 404,
  TEAM_OWNER_CANNOT_DELETE_ACCOUNT: 409,
};

/**
 * THE table of named errors → HTTP answers (docs/architecture.md §3 "Errors"): the one place where the errors the
 * use cases and the domain throw meet HTTP, so no handler catches to translate. The first matching row wins; an
 * error in no row is a 500 without internals (and is logged).
 */
export const ERROR_TABLE: readonly ErrorMapping[] = [
  map(HttpError, (error) => error),
  map(
    QuotaExceededError,
    (error) =>
      new HttpError(
        429,
        'QUOTA_EXCEEDED',
        error.message,
        { quota: error.quota, retryAfterSeconds: error.retryAfterSeconds },
        { 'retry-after': String(error.retryAfterSeconds) },
      ),
  ),
  map(
    InsufficientCreditsError,
    (error) =>
      new HttpError(
        402,
        'INSUFFICIENT_CREDITS',
        // The spec's words (docs/product-spec.md §5) in the singular for a regeneration's 1 credit.
        `Insufficient credits! You need ${error.required} ${error.required === 1 ? 'credit' : 'credits'} but only have ${error.balance}.`,
        { required: error.required, credits: error.balance },
      ),
  ),
  map(ForeignUploadError, as(400, 'INVALID_REFERENCE')),
  map(HighResolutionUnavailableError, as(400, 'HIGH_RESOLUTION_UNAVAILABLE')),
  map(UploadMissingError, as(400, 'UPLOAD_NOT_FOUND')),
  map(InvalidUploadError, as(400, 'INVALID_UPLOAD')),
  map(InvalidCursorError, as(400, 'INVALID_CURSOR')),
  map(NoEmailInTokenError, as(400, 'VALIDATION_ERROR')),
  map(ItemNotFoundError, as(404, 'NOT_FOUND')),
  map(UserNotFoundError, () => notFound('Your account was not found. Please sign in again.')),
  map(PhotosExpiredError, as(409, 'PHOTOS_EXPIRED')),
  map(PhotosDontMatchError, as(409, 'PHOTOS_DONT_MATCH')),
  map(PhotosRefusedError, as(409, 'PHOTOS_REFUSED')),
  map(MixedPeopleError, as(409, 'MIXED_PEOPLE')),
  map(AccountDeletingError, as(409, 'ACCOUNT_DELETING')),
  map(AccountDeletedError, as(410, 'ACCOUNT_DELETED')),
  map(
    GenerationInProgressError,
    (error) =>
      new HttpError(409, 'GENERATION_IN_PROGRESS', error.message, { generationId: error.generationId }),
  ),
  map(
    PurchaseNotFoundError,
    () => new HttpError(409, 'PURCHASE_NOT_FOUND', 'No purchase is known for this payment yet.'),
  ),
  map(TeamError, (error) => new HttpError(TEAM_STATUS[error.code], error.code, error.message, error.details)),
  map(WorkflowStartFailedError, as(502, 'WORKFLOW_START_FAILED')),
  map(CheckoutFailedError, as(502, 'CHECKOUT_FAILED')),
  map(CheckoutUnavailableError, as(502, 'CHECKOUT_UNAVAILABLE')),
];

/** The HTTP form of a thrown value by {@link ERROR_TABLE}, or `undefined` when it has none (a 500). */
export function toHttpError(error: unknown): HttpError | undefined {
  for (const row of ERROR_TABLE) if (error instanceof row.error) return row.toHttp(error);
  return undefined;
}
