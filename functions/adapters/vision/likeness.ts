import { decodeDescriptor, LikenessRejectedError, likenessOf } from '../../domain/likeness';
import { analyzeFaces, decodeRgb } from './faces';

/**
 * The likeness of one headshot to its customer (docs/architecture.md §8 (faces)): the largest face of the image,
 * its descriptor against the customer's (the mean of the references', saved by PrepareReferences).
 *
 * @param image the encoded headshot
 * @param referenceDescriptor the customer's descriptor (base64 float32)
 * @param threshold minimum likeness, 0-100 (config LIKENESS_THRESHOLD)
 * @returns the likeness, 0-100
 * @throws {LikenessRejectedError} when the headshot has no face, or a likeness under `threshold`
 */
export async function requireLikeness(
  image: Buffer,
  referenceDescriptor: string,
  threshold: number,
): Promise<number> {
  const { faces } = await analyzeFaces(await decodeRgb(image));
  const face = faces[0];
  if (!face) throw new LikenessRejectedError('The headshot has no face');
  const likeness = likenessOf(face.descriptor, decodeDescriptor(referenceDescriptor));
  if (likeness < threshold) {
    throw new LikenessRejectedError(`The headshot's likeness ${likeness} is under ${threshold}`, likeness);
  }
  return likeness;
}
