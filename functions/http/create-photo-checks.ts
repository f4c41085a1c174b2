import { photoChecksBody, type PhotoChecks } from '../contracts/generation';
import { checkPhotos } from '../use-cases/check-photos';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `POST /api/photo-checks` (jwt) `{ keys }` → 200 `{ checks: [{ key, verdict, score, reasons: [{ code, message }],
 * duplicateOf? }], quality }`, one check per key in the order given; `quality` (0-100) is the set's "Photo set quality".
 *
 * Each photo is judged on its own (no face, several faces, face too small or cut off, blurry, too dark or bright,
 * low resolution) and against the others (a different person, the same picture uploaded twice: `duplicate`, with
 * `duplicateOf` the key of the copy kept), by the rules of functions/domain/photo-checks.ts.
 * The vision module runs only for photos not checked before at their current ETag (the cache in DynamoDB), so a
 * re-check costs nothing; what it finds is stored under the ETag of the bytes it analysed (the GET's own), so a
 * photo replaced during the check is never stored under its old version.
 *
 * Errors: 400 `VALIDATION_ERROR` (body), 404 `NOT_FOUND` (a key that is not one of the caller's uploads, or was
 * never uploaded: the same answer for both, so nothing about other users is revealed), 429 `QUOTA_EXCEEDED` with
 * `Retry-After` (more than QUOTA_PHOTO_CHECKS_PER_HOUR photos analysed in the hour; cached re-checks do not count);
 * 409 `ACCOUNT_DELETING` / 410 `ACCOUNT_DELETED` for a token still valid while or after its account is deleted.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { keys } = parseBody(event, photoChecksBody);
  return json<PhotoChecks>(200, await checkPhotos(sub, keys));
});
