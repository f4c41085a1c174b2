import { saveReferenceDescriptor, type GenerationRecord } from '../adapters/generations';
import { analyzeFaces, decodeRgb } from '../adapters/support/vision-models/faces';
import { DESCRIPTOR_MODEL, encodeDescriptor, meanDescriptor } from '../domain/likeness';
import { logger } from '../common/logger';

/**
 * Whether {@link currentReferenceDescriptor} needs the reference crops: only when the generation has a descriptor of
 * another identity model (or an unnamed one) to recompute. FinishHeadshot reads the photos from S3 only then.
 */
export function referencesNeeded(generation: GenerationRecord): boolean {
  return !!generation.referenceDescriptor && generation.referenceDescriptorModel !== DESCRIPTOR_MODEL;
}

/**
 * The customer's reference descriptor a headshot's likeness is measured against, in the current model's terms
 * (docs/architecture.md §8, "Identity calibration"): the one PrepareReferences saved when it names
 * {@link DESCRIPTOR_MODEL}; otherwise (a generation prepared before the model changed, its descriptor unnamed —
 * Human's faceres — or of another model) it is recomputed from the generation's reference crops, saved for the
 * other slots, and used. Descriptors of two models are never compared.
 *
 * @param references the generation's reference crops (JPEG bytes, as the provider gets them)
 * @returns base64 float32, or `undefined` when the generation has no descriptor (prepared before likeness existed)
 *   or none of its references shows a face to the current model (then no likeness can be measured)
 */
export async function currentReferenceDescriptor(
  generation: GenerationRecord,
  references: readonly Buffer[],
): Promise<string | undefined> {
  if (!generation.referenceDescriptor) return undefined;
  if (!referencesNeeded(generation)) return generation.referenceDescriptor;
  const descriptors: number[][] = [];
  for (const reference of references) {
    const face = (await analyzeFaces(await decodeRgb(reference))).faces[0];
    if (face) descriptors.push(face.descriptor);
  }
  logger.info('Reference descriptor recomputed for the current model', {
    from: generation.referenceDescriptorModel ?? 'unnamed (faceres)',
    to: DESCRIPTOR_MODEL,
    faces: descriptors.length,
  });
  if (descriptors.length === 0) return undefined;
  const referenceDescriptor = encodeDescriptor(meanDescriptor(descriptors));
  await saveReferenceDescriptor(generation.userId, generation.id, {
    referenceDescriptor,
    referenceDescriptorModel: DESCRIPTOR_MODEL,
  });
  return referenceDescriptor;
}
