import sharp from 'sharp';
import { recordStep } from '../adapters/generations';
import { getObjectBytes, ObjectTooLargeError, putObject } from '../adapters/storage';
import { extractFrame } from '../adapters/vision/crop';
import type { DetectedFace } from '../adapters/vision/faces';
import { analyzePhoto, type AnalyzedPhoto } from '../adapters/vision/photo-facts';
import { clampFrame, headAndShoulders } from '../domain/framing';
import {
  MAX_REFERENCE_PHOTOS,
  MAX_UPLOAD_BYTES,
  noUsablePhotosMessage,
  NoUsablePhotosError,
  PROGRESS,
  type PhotoProblem,
} from '../domain/generation';
import { encodeDescriptor, meanDescriptor } from '../domain/likeness';
import { isOwnUploadKey, normalizedKey } from '../domain/object-keys';
import { bestReferences, checkPhotoSet, type PhotoCheckCode, type PhotoFacts } from '../domain/photo-checks';
import { logger } from '../common/logger';
import { prepareReferencesInput } from './inputs';

/** Photos analysed at once: decoding and the models are CPU-bound; two keep a 2 GB function's vCPUs busy. */
const CONCURRENCY = 2;

/**
 * How much looser than a headshot the reference crops are (zoom < 1): the provider sees hair, ears and shoulders,
 * not only the face.
 */
const REFERENCE_ZOOM = 0.8;

type PhotoResult =
  { index: number; key: string; analyzed: AnalyzedPhoto } | { index: number; problem: PhotoProblem };

async function analyzeUpload(userId: string, key: string, index: number): Promise<PhotoResult> {
  // The API checked ownership already; checking again keeps this task safe on its own.
  if (!isOwnUploadKey(userId, key)) return { index, problem: 'missing' };
  try {
    const bytes = await getObjectBytes('uploads', key, MAX_UPLOAD_BYTES);
    if (!bytes) return { index, problem: 'missing' };
    const analyzed = await analyzePhoto(bytes);
    if (analyzed.problem) return { index, problem: analyzed.problem };
    return { index, key, analyzed };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) return { index, problem: 'too-large' };
    throw error;
  }
}

const UNREADABLE: PhotoFacts = { width: 0, height: 0, readable: false, faces: [] };

/** The wording of a rejecting check in 'None of your photos could be used: …'. */
const PROBLEM_OF_CODE: Partial<Record<PhotoCheckCode, PhotoProblem>> = {
  no_face: 'no-face',
  multiple_faces: 'multiple-faces',
  different_person: 'different-person',
  unreadable: 'not-an-image',
};

/** A head-and-shoulders JPEG around the face, inside the photo (nothing invented at the edges). */
async function referenceCrop(analyzed: AnalyzedPhoto, face: DetectedFace): Promise<Buffer> {
  const image = analyzed.image!;
  const frame = clampFrame(headAndShoulders(face, REFERENCE_ZOOM), image.width, image.height);
  const side = Math.round(frame.side);
  const { rgb } = await extractFrame(image, frame, side);
  return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/**
 * Workflow task PrepareReferences (function `generation-prepare-references`).
 *
 * Never trusts the browser's photo checks: reads each upload, decodes it (HEIC included) and runs the same checks as
 * `POST /api/photo-checks` (functions/domain/photo-checks.ts). Rejected photos (unreadable, no face, several faces,
 * a different person) are dropped; of the rest the 3 best by score become the references (docs/architecture.md
 * §8), each stored as an upright, metadata-free head-and-shoulders JPEG crop centred on the face. The mean of their
 * face descriptors is saved on the generation: every headshot's likeness is measured against it.
 * Progress 10 → 30, stage `preparing`, status `running`.
 *
 * Input `{ generationId, userId, referenceKeys }` → output `{ references: string[] (crop keys, 1-3, best first),
 * usable: number, rejected: number }`.
 *
 * @throws {NoUsablePhotosError} when every photo is rejected; its message is shown to the user as is
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = async (event: unknown) => {
  const { generationId, userId, referenceKeys } = prepareReferencesInput.parse(event);
  await recordStep(userId, generationId, {
    status: 'running',
    stage: 'preparing',
    progress: PROGRESS.preparing,
  });

  const results: PhotoResult[] = [];
  for (let i = 0; i < referenceKeys.length; i += CONCURRENCY) {
    const batch = referenceKeys.slice(i, i + CONCURRENCY);
    results.push(...(await Promise.all(batch.map((key, j) => analyzeUpload(userId, key, i + j)))));
  }
  const checks = checkPhotoSet(results.map((r) => ('analyzed' in r ? r.analyzed.facts : UNREADABLE)));
  const rejected = results.flatMap((r, i): { index: number; problem: PhotoProblem }[] => {
    if ('problem' in r) return [{ index: r.index, problem: r.problem }];
    if (checks[i]!.verdict !== 'rejected') return [];
    const code = checks[i]!.reasons.find((reason) => PROBLEM_OF_CODE[reason.code])?.code;
    return [{ index: r.index, problem: (code && PROBLEM_OF_CODE[code]) ?? 'not-an-image' }];
  });
  const chosen = bestReferences(checks, MAX_REFERENCE_PHOTOS).map(
    (i) => results[i] as Extract<PhotoResult, { analyzed: AnalyzedPhoto }>,
  );
  logger.info('Photos checked', {
    generationId,
    chosen: chosen.map((r) => r.index),
    scores: checks.map((c) => c.score),
    rejected,
  });
  if (chosen.length === 0) throw new NoUsablePhotosError(noUsablePhotosMessage(rejected));

  const references = await Promise.all(
    chosen.map(async ({ key, analyzed }) => {
      const crop = await referenceCrop(analyzed, analyzed.analysis!.faces[0]!);
      const target = normalizedKey(key);
      await putObject('uploads', target, crop, 'image/jpeg');
      return target;
    }),
  );
  const referenceDescriptor = encodeDescriptor(
    meanDescriptor(chosen.map(({ analyzed }) => analyzed.facts.descriptor!)),
  );
  await recordStep(userId, generationId, {
    stage: 'preparing',
    progress: PROGRESS.prepared,
    references,
    referenceDescriptor,
    rejectedPhotos: rejected,
  });
  return { references, usable: results.length - rejected.length, rejected: rejected.length };
};
