import { normalizedPixels, UnusablePhotoError } from '../adapters/images';
import { cachedPhotoChecks, savePhotoFacts, type CachedPhotoCheck } from '../adapters/photo-checks';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { getObject, headObject, ObjectTooLargeError, type ObjectBytes } from '../adapters/storage';
import type { RgbImage } from '../adapters/support/pixels';
import type { AnalyzedPixels, PhotoPixels } from '../adapters/vision/photo-facts';
import { logger } from '../common/logger';
import type { PhotoChecks } from '../contracts/generation';
import { ItemNotFoundError } from '../domain/errors';
import type { StoredFraming } from '../domain/framing';
import { checkPhotoSet, setQuality, type PhotoFacts } from '../domain/photo-checks';
import { MAX_UPLOAD_BYTES, type PhotoProblem } from '../domain/photos';
import { isOwnUploadKey } from '../domain/object-keys';

/**
 * The photo checks (docs/architecture.md §8): what the vision models find in an upload, judged by the rules of
 * functions/domain/photo-checks.ts. Two callers, one orchestration: `POST /api/photo-checks` ({@link checkPhotos})
 * runs the models on the photos not checked before at their current ETag and stores what they found; the workflow's
 * PrepareReferences ({@link judgeUploads}) never trusts the browser, so it reads each upload again and judges it from
 * what the route stored for that ETag, running the models only on photos without a stored check.
 */

/** Photos analysed at once: decoding and inference are CPU-bound, two keep a 2048 MB function's vCPUs busy. */
const CONCURRENCY = 2;

/** The answer for a key that is not the caller's upload, or was never uploaded: the same for both. */
export const PHOTO_NOT_FOUND = 'We could not find one of these photos. Please upload it again.';

const UNREADABLE: PhotoFacts = { width: 0, height: 0, readable: false, faces: [] };

/** What the photo checks need from the outside world: the uploads, the checks' cache, the quota, the models. */
export interface CheckPhotosPorts {
  headObject: (bucket: 'uploads', key: string) => ReturnType<typeof headObject>;
  getObject: (bucket: 'uploads', key: string, maxBytes: number) => Promise<ObjectBytes | undefined>;
  cachedPhotoChecks: typeof cachedPhotoChecks;
  savePhotoFacts: typeof savePhotoFacts;
  /** Counts `amount` photo checks of `sub` in the hour, or throws {QuotaExceededError} (nothing counted). */
  consumePhotoChecks: (sub: string, amount: number) => Promise<unknown>;
  /** The upright, ≤ 1024 px pixels of an upload; throws {UnusablePhotoError} for what is no usable photo. */
  normalizedPixels: (bytes: Buffer) => Promise<PhotoPixels>;
  /** The vision models on those pixels. */
  analyzePhotoPixels: (pixels: PhotoPixels) => Promise<AnalyzedPixels>;
}

const adapters: CheckPhotosPorts = {
  headObject,
  getObject,
  cachedPhotoChecks,
  savePhotoFacts,
  consumePhotoChecks: (sub, amount) => consumeQuota({ sub }, quotaRules().photoChecks, amount),
  normalizedPixels,
  // Loaded at the first photo without a stored check: PrepareReferences usually has none, and the models' code
  // (TensorFlow.js, Human) would cost every cold start.
  analyzePhotoPixels: async (pixels) =>
    (await import('../adapters/vision/photo-facts')).analyzePhotoPixels(pixels),
};

/** One upload through the vision models: its facts, or why it is no usable photo. */
export interface AnalyzedPhoto {
  facts: PhotoFacts;
  /** Why an unreadable photo could not be decoded. */
  problem?: PhotoProblem;
  /** The upright copy the models saw (absent when unreadable). */
  image?: RgbImage;
  /** The largest face's framing landmarks in `image` (absent without a face). */
  framing?: StoredFraming;
}

/**
 * Decodes one upload's bytes (adapters/images.ts) and runs the vision models on its upright copy
 * (adapters/vision/photo-facts.ts).
 *
 * @returns `facts.readable: false` with the `problem` when the bytes are no photo we can decode (empty, not an
 *   image, too large, too many pixels, under 256 px)
 * @throws what the decoder or the models throw besides {UnusablePhotoError}
 */
export async function analyzePhoto(
  bytes: Buffer,
  ports: CheckPhotosPorts = adapters,
): Promise<AnalyzedPhoto> {
  let pixels: PhotoPixels;
  try {
    pixels = await ports.normalizedPixels(bytes);
  } catch (error) {
    if (error instanceof UnusablePhotoError) return { facts: UNREADABLE, problem: error.problem };
    throw error;
  }
  const { facts, image, framing } = await ports.analyzePhotoPixels(pixels);
  return { facts, image, ...(framing ? { framing } : {}) };
}

/** The version of an upload's bytes its check is stored under: the GET's ETag (or, without one, its size). */
const versionOf = (object: ObjectBytes) => object.etag ?? `size:${object.bytes.length}`;

/** An upload as read for a check: its bytes, or why there are none. */
type ReadUpload =
  | { index: number; key: string; object: ObjectBytes }
  | { index: number; key: string; problem: 'missing' | 'too-large'; etag?: string };

async function readUpload(key: string, index: number, ports: CheckPhotosPorts): Promise<ReadUpload> {
  try {
    const object = await ports.getObject('uploads', key, MAX_UPLOAD_BYTES);
    return object ? { index, key, object } : { index, key, problem: 'missing' };
  } catch (error) {
    if (error instanceof ObjectTooLargeError)
      return { index, key, problem: 'too-large', ...(error.etag ? { etag: error.etag } : {}) };
    throw error;
  }
}

/** Runs `task` on every item, {@link CONCURRENCY} at a time, keeping their order. */
async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += CONCURRENCY) {
    results.push(...(await Promise.all(items.slice(i, i + CONCURRENCY).map(task))));
  }
  return results;
}

/**
 * Whether stored facts hold what the duplicate check compares: the perceptual hash, and for a photo with a face its
 * aligned face crop (docs/decisions/024-near-duplicates.md). A check stored before either was kept is analysed again
 * (once: it is stored again with them), or a letterboxed or cropped copy would not be seen.
 */
const comparable = (facts: PhotoFacts) => !!facts.imageHash && (facts.faces.length === 0 || !!facts.faceCrop);

/** Whether a stored check can stand for the photo in `POST /api/photo-checks`: unreadable, or {@link comparable}. */
const answersCheck = (facts: PhotoFacts) => !facts.readable || comparable(facts);

/**
 * Whether a stored check can stand for the photo in PrepareReferences: readable, {@link comparable}, and with the
 * face's landmarks to crop from. An unreadable photo goes through the models' path so it fails in decoding,
 * with its reason.
 */
const answersReferences = ({ facts, framing }: CachedPhotoCheck) =>
  facts.readable && comparable(facts) && (facts.faces.length === 0 || !!framing);

/**
 * `POST /api/photo-checks`: checks the caller's uploads, each on its own and against the others
 * (functions/domain/photo-checks.ts). The models run only on photos not checked before at their current ETag, and
 * only those count against the hourly `photo-checks` quota; what they find is stored under the ETag of the GET that
 * returned the bytes (never the HEAD's), so a photo replaced during the check is never stored under its old version.
 *
 * @param keys upload keys, as the caller sent them
 * @returns one check per key in the order given, and the set's quality (0-100)
 * @throws {ItemNotFoundError} ({@link PHOTO_NOT_FOUND}) for a key that is not the caller's upload or is not stored;
 *   {QuotaExceededError} past the hourly quota (nothing analysed); {AccountDeletingError} / {AccountDeletedError}
 *   from the quota for an account being or already deleted
 */
export async function checkPhotos(
  sub: string,
  keys: readonly string[],
  ports: CheckPhotosPorts = adapters,
): Promise<PhotoChecks> {
  if (!keys.every((key) => isOwnUploadKey(sub, key))) throw new ItemNotFoundError(PHOTO_NOT_FOUND);
  const heads = await Promise.all(keys.map((key) => ports.headObject('uploads', key)));
  const uploads = keys.map((key, i) => {
    const head = heads[i];
    if (!head) throw new ItemNotFoundError(PHOTO_NOT_FOUND);
    return { key, etag: head.etag ?? `size:${head.size}` };
  });
  const stored = await ports.cachedPhotoChecks(sub, uploads);
  const facts = new Map<string, PhotoFacts>();
  for (const [key, check] of stored) if (answersCheck(check.facts)) facts.set(key, check.facts);
  const missing = uploads.filter(({ key }) => !facts.has(key));
  // Only the photos the models will run on count against the hourly quota: a re-check is free.
  if (missing.length > 0) await ports.consumePhotoChecks(sub, missing.length);
  const started = Date.now();
  await inBatches(missing, async ({ key, etag: headEtag }) => {
    const read = await readUpload(key, 0, ports);
    if ('problem' in read && read.problem === 'missing') throw new ItemNotFoundError(PHOTO_NOT_FOUND);
    const etag = 'object' in read ? versionOf(read.object) : (read.etag ?? headEtag);
    if (etag !== headEtag) logger.info('Upload replaced while it was checked', { key, headEtag, etag });
    const result: AnalyzedPhoto =
      'object' in read ? await analyzePhoto(read.object.bytes, ports) : { facts: UNREADABLE };
    // The framing goes with the facts: PrepareReferences crops the references from it without the models.
    await ports.savePhotoFacts(sub, key, etag, result.facts, result.framing);
    facts.set(key, result.facts);
  });
  const checks = checkPhotoSet(keys.map((key) => facts.get(key)!));
  logger.info('Photos checked', {
    photos: keys.length,
    analysed: missing.length,
    ms: Date.now() - started,
    verdicts: checks.map((c) => c.verdict),
  });
  return {
    checks: keys.map((key, i) => {
      // `unverified` only steers PrepareReferences' choice: the route's contract has no such field.
      const { duplicateOf, unverified: _unverified, ...check } = checks[i]!;
      return { key, ...check, ...(duplicateOf === undefined ? {} : { duplicateOf: keys[duplicateOf]! }) };
    }),
    quality: setQuality(checks),
  };
}

/** A readable upload of a generation and what is known of it. */
export interface JudgedPhoto {
  /** Its place in the generation's `referenceKeys`. */
  index: number;
  key: string;
  facts: PhotoFacts;
  /** The largest face's landmarks (absent without a face). */
  framing?: StoredFraming;
  bytes: Buffer;
  /** Set when the models ran here (no stored check): the decoded copy they saw. */
  image?: RgbImage;
}

/** One upload of the generation: judged, or why it cannot be used at all. */
export type PhotoResult = JudgedPhoto | { index: number; problem: PhotoProblem };

/**
 * PrepareReferences' reading of a generation's uploads, in the order given: every upload is read with its ETag; a
 * photo the photo check already analysed at that ETag is judged from what the check stored, the others go through
 * the models (loaded for them alone). Keys that are not the caller's uploads count as missing: the API checked
 * ownership already, checking again keeps the task safe on its own.
 *
 * @returns one result per key; `models` says how many photos needed the models (no usable stored check)
 * @throws the storage's, the cache's or the models' error (the task is retried)
 */
export async function judgeUploads(
  userId: string,
  keys: readonly string[],
  ports: CheckPhotosPorts = adapters,
): Promise<{ results: PhotoResult[]; models: number }> {
  const uploads = await Promise.all(
    keys.map((key, index): Promise<ReadUpload> | ReadUpload =>
      isOwnUploadKey(userId, key) ? readUpload(key, index, ports) : { index, key, problem: 'missing' },
    ),
  );
  const readable = uploads.filter((u): u is Extract<ReadUpload, { object: ObjectBytes }> => 'object' in u);
  const stored = await ports.cachedPhotoChecks(
    userId,
    readable.map(({ key, object }) => ({ key, etag: versionOf(object) })),
  );
  const results: PhotoResult[] = uploads.flatMap((u) =>
    'problem' in u ? [{ index: u.index, problem: u.problem }] : [],
  );
  const unchecked: typeof readable = [];
  for (const upload of readable) {
    const check = stored.get(upload.key);
    if (!check || !answersReferences(check)) unchecked.push(upload);
    else {
      const { index, key, object } = upload;
      results.push({
        index,
        key,
        facts: check.facts,
        bytes: object.bytes,
        ...(check.framing ? { framing: check.framing } : {}),
      });
    }
  }
  const analysed = await inBatches(unchecked, async ({ index, key, object }): Promise<PhotoResult> => {
    const { problem, facts, framing, image } = await analyzePhoto(object.bytes, ports);
    if (problem) return { index, problem };
    return {
      index,
      key,
      facts,
      bytes: object.bytes,
      ...(framing ? { framing } : {}),
      ...(image ? { image } : {}),
    };
  });
  results.push(...analysed);
  return { results: results.sort((a, b) => a.index - b.index), models: unchecked.length };
}
