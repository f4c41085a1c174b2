import { recordStep } from '../adapters/generations';
import { encodeReferenceCrop, normalizedPixels } from '../adapters/images';
import { putObject } from '../adapters/storage';
import type { RgbImage } from '../adapters/support/pixels';
import { logger } from '../common/logger';
import { clampFrame, framingAt, headAndShoulders } from '../domain/framing';
import { PROGRESS } from '../domain/generation-status';
import { DESCRIPTOR_MODEL, encodeDescriptor, meanDescriptor } from '../domain/likeness';
import { normalizedKey } from '../domain/object-keys';
import {
  bestReferences,
  checkPhotoSet,
  mixesPeople,
  PHOTO_CHECK_MESSAGES,
  type PhotoCheckCode,
  type PhotoFacts,
} from '../domain/photo-checks';
import {
  MAX_REFERENCE_PHOTOS,
  noUsablePhotosMessage,
  NoUsablePhotosError,
  type PhotoProblem,
} from '../domain/photos';
import { judgeUploads, type JudgedPhoto } from './check-photos';

/**
 * How much looser than a headshot the reference crops are (zoom < 1): the provider sees hair, ears and shoulders,
 * not only the face.
 */
const REFERENCE_ZOOM = 0.8;

const UNREADABLE: PhotoFacts = { width: 0, height: 0, readable: false, faces: [] };

/** The wording of a rejecting check in 'None of your photos could be used: …'. */
const PROBLEM_OF_CODE: Partial<Record<PhotoCheckCode, PhotoProblem>> = {
  no_face: 'no-face',
  multiple_faces: 'multiple-faces',
  different_person: 'different-person',
  duplicate: 'duplicate',
  unreadable: 'not-an-image',
};

/** What preparing the references needs from the outside world: the generation, the uploads, the crops' encoder. */
export interface PrepareReferencesPorts {
  recordStep: typeof recordStep;
  /** Reads and judges the generation's uploads (use-cases/check-photos.ts). */
  judgeUploads: (userId: string, keys: readonly string[]) => ReturnType<typeof judgeUploads>;
  /** The upright pixels of an upload the models did not run on here. */
  normalizedPixels: (bytes: Buffer) => Promise<RgbImage>;
  encodeReferenceCrop: typeof encodeReferenceCrop;
  putObject: (bucket: 'uploads', key: string, body: Buffer, contentType: string) => Promise<void>;
}

const adapters: PrepareReferencesPorts = {
  recordStep,
  judgeUploads: (userId, keys) => judgeUploads(userId, keys),
  normalizedPixels,
  encodeReferenceCrop,
  putObject,
};

/** What PrepareReferences answers the workflow. */
export interface PreparedReferences {
  /** The crops' keys (1-3, best first). */
  references: string[];
  usable: number;
  rejected: number;
}

/**
 * A head-and-shoulders JPEG around the photo's largest face, inside the photo (nothing invented at the edges):
 * upright, metadata-free, from the normalized copy the landmarks were measured on.
 *
 * @throws {Error} when the photo has no face landmarks
 */
export async function referenceCrop(
  photo: JudgedPhoto,
  ports: Pick<PrepareReferencesPorts, 'normalizedPixels' | 'encodeReferenceCrop'> = adapters,
): Promise<Buffer> {
  if (!photo.framing) throw new Error(`Photo ${photo.index} has no face to frame`);
  const image = photo.image ?? (await ports.normalizedPixels(photo.bytes));
  const face = framingAt(photo.framing, image.width, image.height);
  const frame = clampFrame(headAndShoulders(face, REFERENCE_ZOOM), image.width, image.height);
  return ports.encodeReferenceCrop(image, frame, Math.round(frame.side));
}

/**
 * PrepareReferences (docs/architecture.md §4, §8). Never trusts the browser's photo checks: every upload is read and
 * judged by the same checks as `POST /api/photo-checks` (use-cases/check-photos.ts `judgeUploads`). Rejected photos
 * (unreadable, no face, several faces, a different person, a duplicate) are dropped; of the rest the 3 best by score
 * become the references (a warning photo only when its face was verified as the customer's, so a set may send
 * fewer: domain/photo-checks.ts `bestReferences`), each stored as an upright, metadata-free head-and-shoulders JPEG crop centred on the face
 * (`uploads/<sub>/<batchId>/normalized/<n>.jpg`). The mean of their face descriptors is saved on the generation:
 * every headshot's likeness is measured against it. Progress 10 → 30, stage `preparing`, status `running`.
 *
 * A set the checks call `mixed_people` (photos of different people, no majority: domain/photo-checks.ts
 * `mixesPeople`) sends nothing: nobody can tell which photos are the customer. The start refuses such a set up front
 * (use-cases/start-generation.ts); one that gets here anyway (photos not checked before the start, a race, an old
 * client) fails like a set with no usable photo, refunded, with the check's sentence (issue 33).
 *
 * @throws {NoUsablePhotosError} when every photo is rejected, or the set mixes people; its message is shown to the
 *   customer as is
 * @throws {GenerationClosedError} when the generation was already compensated
 * @throws a port's error (the task is retried)
 */
export async function prepareReferences(
  userId: string,
  generationId: string,
  referenceKeys: readonly string[],
  ports: PrepareReferencesPorts = adapters,
): Promise<PreparedReferences> {
  // The step is recorded while the photos are read: both wait on the network. Both settle before anything else,
  // so a late 'running' can never overwrite what a failure writes after this task.
  const [step, judged] = await Promise.allSettled([
    ports.recordStep(userId, generationId, {
      status: 'running',
      stage: 'preparing',
      progress: PROGRESS.preparing,
    }),
    ports.judgeUploads(userId, referenceKeys),
  ]);
  if (step.status === 'rejected') throw step.reason;
  if (judged.status === 'rejected') throw judged.reason;
  const { results, models } = judged.value;
  const checks = checkPhotoSet(results.map((r) => ('facts' in r ? r.facts : UNREADABLE)));
  const rejected = results.flatMap((r, i): { index: number; problem: PhotoProblem }[] => {
    if ('problem' in r) return [{ index: r.index, problem: r.problem }];
    if (checks[i]!.verdict !== 'rejected') return [];
    const code = checks[i]!.reasons.find((reason) => PROBLEM_OF_CODE[reason.code])?.code;
    return [{ index: r.index, problem: (code && PROBLEM_OF_CODE[code]) ?? 'not-an-image' }];
  });
  const chosen = bestReferences(checks, MAX_REFERENCE_PHOTOS).map((i) => results[i] as JudgedPhoto);
  logger.info('Photos checked', {
    chosen: chosen.map((r) => r.index),
    scores: checks.map((c) => c.score),
    rejected,
    // Photos the face models ran on here: 0 when every photo came with its stored photo check.
    analysedHere: models,
  });
  if (chosen.length === 0) throw new NoUsablePhotosError(noUsablePhotosMessage(rejected));
  if (mixesPeople(checks)) throw new NoUsablePhotosError(PHOTO_CHECK_MESSAGES.mixed_people);

  const references = await Promise.all(
    chosen.map(async (photo) => {
      const crop = await referenceCrop(photo, ports);
      const target = normalizedKey(photo.key);
      await ports.putObject('uploads', target, crop, 'image/jpeg');
      return target;
    }),
  );
  const referenceDescriptor = encodeDescriptor(meanDescriptor(chosen.map(({ facts }) => facts.descriptor!)));
  await ports.recordStep(userId, generationId, {
    stage: 'preparing',
    progress: PROGRESS.prepared,
    references,
    referenceDescriptor,
    referenceDescriptorModel: DESCRIPTOR_MODEL,
    rejectedPhotos: rejected,
  });
  return { references, usable: results.length - rejected.length, rejected: rejected.length };
}
