import { createUploadsBody, type Uploads } from '../contracts/generation';
import { createUploads } from '../use-cases/create-uploads';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `POST /api/uploads` (jwt) `{ files: [{ contentType, size }] }` (1-10 files, `image/*`, 1 B-10 MiB each)
 * → 200 `{ batchId, uploads: [{ key, url, fields }], expiresAt }`, one presigned POST per file in the same order.
 *
 * The browser uploads each file as `multipart/form-data` to `url` with every entry of `fields` first and the file
 * last under the name `file`; S3 answers 204. Keys are `uploads/<sub>/<batchId>/<n>`; the policy allows 1 byte to
 * 10 MiB and a Content-Type starting with `image/`, for 5 minutes. The keys then go to `POST /api/generations` as
 * `referenceKeys`.
 *
 * Errors: 400 `VALIDATION_ERROR` (no files, more than 10, a type that is not an image, a size of 0 or over 10 MB);
 * 429 `QUOTA_EXCEEDED` with `Retry-After` (seconds) when the caller's hourly photo quota (`QUOTA_UPLOADS_PER_HOUR`,
 * default 100 files) cannot take the whole batch — nothing is presigned then; 409 `ACCOUNT_DELETING` / 410
 * `ACCOUNT_DELETED` for a token still valid while or after its account is deleted.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { files } = parseBody(event, createUploadsBody);
  return json<Uploads>(200, await createUploads(sub, files));
});
