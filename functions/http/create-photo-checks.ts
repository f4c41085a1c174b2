import { cachedPhotoFacts, savePhotoFacts } from '../adapters/photo-checks';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { getObject, headObject, ObjectTooLargeError } from '../adapters/storage';
import { analyzePhoto, type AnalyzedPhoto } from '../adapters/vision/photo-facts';
import { photoChecksBody, type PhotoChecks } from '../contracts/generation';
import { MAX_UPLOAD_BYTES } from '../domain/photos';
import { isOwnUploadKey } from '../domain/object-keys';
import { checkPhotoSet, setQuality } from '../domain/photo-checks';
import { logger } from '../common/logger';
import { notFound } from './errors';
import { callerOf, httpHandler, json, parseBody } from './handler';

/** Photos analysed at once: the models are CPU-bound and a 2048 MB function has a little more than one vCPU. */
const CONCURRENCY = 2;

const NOT_FOUND = 'We could not find one of these photos. Please upload it again.';

/** What the models found in one upload, and the version of the bytes they ran on. */
interface AnalysedUpload extends Pick<AnalyzedPhoto, 'facts' | 'framing'> {
  /** The ETag the GET answered with: the version of exactly the bytes analysed. */
  etag: string;
}

/**
 * Reads and analyses one upload. The result is keyed by the ETag of the GET that returned the bytes, never by the
 * HeadObject before it: an upload replaced between the two would otherwise store the facts, descriptor and framing
 * of other bytes under the old version, and PrepareReferences reuses stored checks without looking again.
 */
async function analyzeUpload(key: string, headEtag: string): Promise<AnalysedUpload> {
  try {
    const object = await getObject('uploads', key, MAX_UPLOAD_BYTES);
    if (!object) throw notFound(NOT_FOUND);
    const etag = object.etag ?? `size:${object.bytes.length}`;
    if (etag !== headEtag) logger.info('Upload replaced while it was checked', { key, headEtag, etag });
    const { facts, framing } = await analyzePhoto(object.bytes);
    return { facts, framing, etag };
  } catch (error) {
    if (error instanceof ObjectTooLargeError)
      return { facts: { width: 0, height: 0, readable: false, faces: [] }, etag: error.etag ?? headEtag };
    throw error;
  }
}

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
  if (!keys.every((key) => isOwnUploadKey(sub, key))) throw notFound(NOT_FOUND);
  const heads = await Promise.all(keys.map((key) => headObject('uploads', key)));
  const uploads = keys.map((key, i) => {
    const head = heads[i];
    if (!head) throw notFound(NOT_FOUND);
    return { key, etag: head.etag ?? `size:${head.size}` };
  });

  const facts = await cachedPhotoFacts(sub, uploads);
  // A readable photo checked before the perceptual hash was kept is analysed again (no duplicate is seen without it).
  for (const [key, f] of facts) if (f.readable && !f.imageHash) facts.delete(key);
  const missing = uploads.filter(({ key }) => !facts.has(key));
  // Only the photos the models will run on count against the hourly quota: a re-check is free.
  if (missing.length > 0) await consumeQuota({ sub }, quotaRules().photoChecks, missing.length);
  const started = Date.now();
  for (let i = 0; i < missing.length; i += CONCURRENCY) {
    await Promise.all(
      missing.slice(i, i + CONCURRENCY).map(async ({ key, etag }) => {
        const result = await analyzeUpload(key, etag);
        // The framing goes with the facts: PrepareReferences crops the references from it without the models.
        await savePhotoFacts(sub, key, result.etag, result.facts, result.framing);
        facts.set(key, result.facts);
      }),
    );
  }
  const checks = checkPhotoSet(keys.map((key) => facts.get(key)!));
  logger.info('Photos checked', {
    photos: keys.length,
    analysed: missing.length,
    ms: Date.now() - started,
    verdicts: checks.map((c) => c.verdict),
  });
  return json<PhotoChecks>(200, {
    checks: keys.map((key, i) => {
      const { duplicateOf, ...check } = checks[i]!;
      return { key, ...check, ...(duplicateOf === undefined ? {} : { duplicateOf: keys[duplicateOf]! }) };
    }),
    quality: setQuality(checks),
  });
});
