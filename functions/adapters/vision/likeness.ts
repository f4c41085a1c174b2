import { decodeDescriptor, LikenessRejectedError, likenessOf } from '../../domain/likeness';
import { headshotPixels, type HeadshotRaster } from '../images';
import { analyzeFaces } from './faces';

/**
 * Side at which a headshot's likeness is measured, in px. The face of a headshot spans a third of its 1024 px or
 * more, so at 512 px it is still wider than the identity net's 150 px chip. Checked on the fixtures: likeness at 512 px is
 * within 3 points of the 1024 px figure for every photo (against obama ×3: same person 89-98, `biden.jpg` 0), while decoding and
 * converting a quarter of the pixels saves time on the one thread the models run on.
 */
export const LIKENESS_SIDE = 512;

/**
 * The likeness of one headshot to its customer (docs/architecture.md §8 (faces)): the largest face of the image,
 * its descriptor against the customer's (the mean of the references', saved by PrepareReferences).
 *
 * @param raster the headshot as stored (images.ts `decodeHeadshot`), measured at {@link LIKENESS_SIDE} px
 * @param referenceDescriptor the customer's descriptor (base64 float32)
 * @param threshold minimum likeness, 0-100 (config LIKENESS_THRESHOLD)
 * @returns the likeness, 0-100
 * @throws {LikenessRejectedError} when the headshot has no face, or a likeness under `threshold`
 */
export async function requireLikeness(
  raster: HeadshotRaster,
  referenceDescriptor: string,
  threshold: number,
): Promise<number> {
  const { faces } = await analyzeFaces(await headshotPixels(raster, LIKENESS_SIDE));
  const face = faces[0];
  if (!face) throw new LikenessRejectedError('The headshot has no face');
  const likeness = likenessOf(face.descriptor, decodeDescriptor(referenceDescriptor));
  if (likeness < threshold) {
    throw new LikenessRejectedError(`The headshot's likeness ${likeness} is under ${threshold}`, likeness);
  }
  return likeness;
}
