import { recordStep } from '../adapters/generations';
import { putObject } from '../adapters/storage';
import {
  MAX_REFERENCE_PHOTOS,
  noUsablePhotosMessage,
  NoUsablePhotosError,
  type PhotoProblem,
} from '../domain/photos';
import { PROGRESS } from '../domain/generation-status';
import { DESCRIPTOR_MODEL, encodeDescriptor, meanDescriptor } from '../domain/likeness';
import { normalizedKey } from '../domain/object-keys';
import { bestReferences, checkPhotoSet, type PhotoCheckCode, type PhotoFacts } from '../domain/photo-checks';
import { logger } from '../common/logger';
import { prepareReferencesInput } from './inputs/prepare-references';
import { judgeUploads, referenceCrop, type JudgedPhoto } from './reference-photos';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

const UNREADABLE: PhotoFacts = { width: 0, height: 0, readable: false, faces: [] };

/** The wording of a rejecting check in 'None of your photos could be used: …'. */
const PROBLEM_OF_CODE: Partial<Record<PhotoCheckCode, PhotoProblem>> = {
  no_face: 'no-face',
  multiple_faces: 'multiple-faces',
  different_person: 'different-person',
  duplicate: 'duplicate',
  unreadable: 'not-an-image',
};

/**
 * Workflow task PrepareReferences (function `generation-prepare-references`).
 *
 * Never trusts the browser's photo checks: reads each upload and judges it by the same checks as
 * `POST /api/photo-checks` (functions/domain/photo-checks.ts), from what that route stored for the upload's current
 * ETag (facts, descriptor, face landmarks; then only sharp runs here), or by running the face models on it when
 * nothing is stored (./reference-photos.ts). Rejected photos (unreadable, no face, several faces,
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
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, referenceKeys } = prepareReferencesInput.parse(event);
  // The step is recorded while the photos are read: both wait on the network. Both settle before anything else,
  // so a late 'running' can never overwrite what a failure writes after this task.
  const [step, judged] = await Promise.allSettled([
    recordStep(userId, generationId, {
      status: 'running',
      stage: 'preparing',
      progress: PROGRESS.preparing,
    }),
    judgeUploads(userId, referenceKeys),
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

  const references = await Promise.all(
    chosen.map(async (photo) => {
      const crop = await referenceCrop(photo);
      const target = normalizedKey(photo.key);
      await putObject('uploads', target, crop, 'image/jpeg');
      return target;
    }),
  );
  const referenceDescriptor = encodeDescriptor(meanDescriptor(chosen.map(({ facts }) => facts.descriptor!)));
  await recordStep(userId, generationId, {
    stage: 'preparing',
    progress: PROGRESS.prepared,
    references,
    referenceDescriptor,
    referenceDescriptorModel: DESCRIPTOR_MODEL,
    rejectedPhotos: rejected,
  });
  return { references, usable: results.length - rejected.length, rejected: rejected.length };
}, workflowKeys);
