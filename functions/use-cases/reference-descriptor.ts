import { saveReferenceDescriptor, type GenerationRecord } from '../adapters/generations';
import { getObjectBytes } from '../adapters/storage';
import { referenceFaceDescriptor } from '../adapters/vision/likeness';
import { logger } from '../common/logger';
import { ReferenceMissingError } from '../domain/generation-errors';
import { DESCRIPTOR_MODEL, encodeDescriptor, meanDescriptor } from '../domain/likeness';

/**
 * The customer's reference descriptor in the current identity model's terms (docs/architecture.md §8, "Identity
 * calibration"): descriptors of two models are never compared, so a generation prepared before the model changed
 * gets its descriptor recomputed from its reference crops.
 */

/** What the reference descriptor needs from the outside world: the crops, the identity model, the generation. */
export interface ReferenceDescriptorPorts {
  /** A reference crop's bytes from the uploads bucket; `undefined` when it is gone. */
  getReferenceBytes: (key: string) => Promise<Buffer | undefined>;
  referenceFaceDescriptor: typeof referenceFaceDescriptor;
  saveReferenceDescriptor: typeof saveReferenceDescriptor;
}

const adapters: ReferenceDescriptorPorts = {
  getReferenceBytes: (key) => getObjectBytes('uploads', key),
  referenceFaceDescriptor,
  saveReferenceDescriptor,
};

/**
 * Whether {@link currentReferenceDescriptor} needs the reference crops: only when the generation has a descriptor of
 * another identity model (or an unnamed one) to recompute. FinishHeadshot reads the photos from S3 only then.
 */
export function referencesNeeded(
  generation: Pick<GenerationRecord, 'referenceDescriptor' | 'referenceDescriptorModel'>,
): boolean {
  return !!generation.referenceDescriptor && generation.referenceDescriptorModel !== DESCRIPTOR_MODEL;
}

/**
 * The normalized reference photos' bytes (upright JPEGs), in the order of `keys`.
 *
 * @param keys `uploads/<sub>/<batchId>/normalized/<n>.jpg` keys, as PrepareReferences chose them
 * @throws {ReferenceMissingError} when one of them is gone (the customer deleted their data meanwhile)
 */
export function loadReferences(
  keys: readonly string[],
  ports: Pick<ReferenceDescriptorPorts, 'getReferenceBytes'> = adapters,
): Promise<Buffer[]> {
  return Promise.all(
    keys.map(async (key) => {
      const bytes = await ports.getReferenceBytes(key);
      if (!bytes) throw new ReferenceMissingError(`Reference ${key} is missing`);
      return bytes;
    }),
  );
}

/**
 * The customer's reference descriptor a headshot's likeness is measured against: the one PrepareReferences saved
 * when it names {@link DESCRIPTOR_MODEL}; otherwise (a generation prepared before the model changed, its descriptor
 * unnamed — Human's faceres — or of another model) it is recomputed from the generation's reference crops, saved for
 * the other slots (while the generation is open), and used.
 *
 * @param references the generation's reference crops (JPEG bytes, as the provider gets them; see
 *   {@link loadReferences})
 * @returns base64 float32, or `undefined` when the generation has no descriptor (prepared before likeness existed)
 *   or none of its references shows a face to the current model (then no likeness can be measured)
 * @throws a port's error (a crop that does not decode, the table)
 */
export async function currentReferenceDescriptor(
  generation: GenerationRecord,
  references: readonly Buffer[],
  ports: ReferenceDescriptorPorts = adapters,
): Promise<string | undefined> {
  if (!generation.referenceDescriptor) return undefined;
  if (!referencesNeeded(generation)) return generation.referenceDescriptor;
  const descriptors: number[][] = [];
  // One after the other: the models run one image at a time anyway.
  for (const reference of references) {
    const descriptor = await ports.referenceFaceDescriptor(reference);
    if (descriptor) descriptors.push(descriptor);
  }
  logger.info('Reference descriptor recomputed for the current model', {
    from: generation.referenceDescriptorModel ?? 'unnamed (faceres)',
    to: DESCRIPTOR_MODEL,
    faces: descriptors.length,
  });
  if (descriptors.length === 0) return undefined;
  const referenceDescriptor = encodeDescriptor(meanDescriptor(descriptors));
  await ports.saveReferenceDescriptor(generation.userId, generation.id, {
    referenceDescriptor,
    referenceDescriptorModel: DESCRIPTOR_MODEL,
  });
  return referenceDescriptor;
}
