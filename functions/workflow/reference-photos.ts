import sharp from 'sharp';
import { normalizedPixels } from '../adapters/images';
import { cachedPhotoChecks } from '../adapters/photo-checks';
import { getObject, ObjectTooLargeError, type ObjectBytes } from '../adapters/storage';
import { extractFrame } from '../adapters/support/crop';
import type { AnalyzedPhoto } from '../adapters/vision/photo-facts';
import type { RgbImage } from '../adapters/support/pixels';
import { clampFrame, framingAt, headAndShoulders, type StoredFraming } from '../domain/framing';
import { MAX_UPLOAD_BYTES, type PhotoProblem } from '../domain/photos';
import { isOwnUploadKey } from '../domain/object-keys';
import type { PhotoFacts } from '../domain/photo-checks';

/**
 * The reference photos of one generation, read and judged for PrepareReferences (docs/architecture.md §4, §8):
 * every upload is read from S3 with its ETag; a photo the photo check (`POST /api/photo-checks`) already analysed at
 * that ETag is judged from what the check stored (its facts, descriptor and face landmarks) and cropped with sharp
 * alone. Only photos without a stored check (never checked, replaced since, or checked before the landmarks were
 * kept) go through the face models, which are loaded for them alone.
 */

/** Photos analysed at once by the models: decoding and inference are CPU-bound; two keep a 2 GB function's vCPUs busy. */
const CONCURRENCY = 2;

/**
 * How much looser than a headshot the reference crops are (zoom < 1): the provider sees hair, ears and shoulders,
 * not only the face.
 */
const REFERENCE_ZOOM = 0.8;

/** A readable upload and what is known of it. */
export interface JudgedPhoto {
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

type ReadUpload =
  { index: number; key: string; object: ObjectBytes } | { index: number; problem: PhotoProblem };

async function readUpload(userId: string, key: string, index: number): Promise<ReadUpload> {
  // The API checked ownership already; checking again keeps this task safe on its own.
  if (!isOwnUploadKey(userId, key)) return { index, problem: 'missing' };
  try {
    const object = await getObject('uploads', key, MAX_UPLOAD_BYTES);
    return object ? { index, key, object } : { index, problem: 'missing' };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) return { index, problem: 'too-large' };
    throw error;
  }
}

/** The same version the photo-check route keys its cache by (functions/http/create-photo-checks.ts). */
const versionOf = (object: ObjectBytes) => object.etag ?? `size:${object.bytes.length}`;

/** Runs the face models on uploads without a stored check; their code loads only when such a photo turns up. */
async function analyzeWithModels(
  uploads: Extract<ReadUpload, { object: ObjectBytes }>[],
): Promise<PhotoResult[]> {
  if (uploads.length === 0) return [];
  const { analyzePhoto } = await import('../adapters/vision/photo-facts');
  const results: PhotoResult[] = [];
  for (let i = 0; i < uploads.length; i += CONCURRENCY) {
    const batch = uploads.slice(i, i + CONCURRENCY);
    const analyzed = await Promise.all(batch.map(({ object }) => analyzePhoto(object.bytes)));
    results.push(
      ...batch.map(({ index, key, object }, j): PhotoResult => {
        const { problem, facts, framing, image } = analyzed[j] as AnalyzedPhoto;
        if (problem) return { index, problem };
        return {
          index,
          key,
          facts,
          bytes: object.bytes,
          ...(framing ? { framing } : {}),
          ...(image ? { image } : {}),
        };
      }),
    );
  }
  return results;
}

/**
 * Reads and judges the uploads of a generation, in the order given.
 *
 * @returns one result per key; `models` says how many photos needed the face models (no stored check)
 * @throws the SDK's error when S3 or DynamoDB fail (the task is retried)
 */
export async function judgeUploads(
  userId: string,
  keys: readonly string[],
): Promise<{ results: PhotoResult[]; models: number }> {
  const uploads = await Promise.all(keys.map((key, index) => readUpload(userId, key, index)));
  const readable = uploads.filter((u): u is Extract<ReadUpload, { object: ObjectBytes }> => 'object' in u);
  const stored = await cachedPhotoChecks(
    userId,
    readable.map(({ key, object }) => ({ key, etag: versionOf(object) })),
  );
  const results: PhotoResult[] = uploads.filter((u) => 'problem' in u) as PhotoResult[];
  const unchecked: typeof readable = [];
  for (const upload of readable) {
    const check = stored.get(upload.key);
    // An unreadable photo goes through the models' path too: it fails in decoding, before them, with its reason.
    // A check stored before the perceptual hash was kept is analysed again: without it no duplicate is seen.
    const complete =
      check?.facts.readable && check.facts.imageHash && (check.facts.faces.length === 0 || check.framing);
    if (!check || !complete) unchecked.push(upload);
    else
      results.push({
        index: upload.index,
        key: upload.key,
        facts: check.facts,
        bytes: upload.object.bytes,
        ...(check.framing ? { framing: check.framing } : {}),
      });
  }
  results.push(...(await analyzeWithModels(unchecked)));
  return { results: results.sort((a, b) => a.index - b.index), models: unchecked.length };
}

/**
 * A head-and-shoulders JPEG around the photo's largest face, inside the photo (nothing invented at the edges):
 * upright, metadata-free, from the normalized copy the landmarks were measured on.
 *
 * @throws {Error} when the photo has no face landmarks
 */
export async function referenceCrop(photo: JudgedPhoto): Promise<Buffer> {
  if (!photo.framing) throw new Error(`Photo ${photo.index} has no face to frame`);
  const image = photo.image ?? (await normalizedPixels(photo.bytes));
  const face = framingAt(photo.framing, image.width, image.height);
  const frame = clampFrame(headAndShoulders(face, REFERENCE_ZOOM), image.width, image.height);
  const side = Math.round(frame.side);
  const { rgb } = await extractFrame(image, frame, side);
  return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
