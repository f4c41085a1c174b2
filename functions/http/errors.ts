import { QuotaExceededError } from '../domain/quotas';

/**
 * The one error shape of the whole API (docs/architecture.md §3): `{ "error": { "code": string, "message": string } }`.
 * `message` is written for a person; `code` is stable for programs.
 */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown };
}

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

/**
 * The HTTP form of a named domain error, or `undefined` when the error has none (the one place such errors meet
 * HTTP, docs/architecture.md §9).
 *
 * - {@link QuotaExceededError} → 429 `QUOTA_EXCEEDED` with `Retry-After: <seconds>` and details
 *   `{ quota, retryAfterSeconds }`.
 */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof QuotaExceededError) {
    return new HttpError(
      429,
      'QUOTA_EXCEEDED',
      error.message,
      { quota: error.quota, retryAfterSeconds: error.retryAfterSeconds },
      { 'retry-after': String(error.retryAfterSeconds) },
    );
  }
  return undefined;
}
