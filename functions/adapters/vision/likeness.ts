import { decodeDescriptor, LikenessRejectedError, likenessOf } from '../../domain/likeness';
import { headshotPixels, type HeadshotRaster } from '../images';
import { canvasPixels, type HeadshotCanvas } from '../headshot-files';
import { contains, squareRect, type CropRect, type FacePosition } from '../../domain/headshot-variants';
import { analyzeFaces } from '../support/vision-models/faces';

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

/** The face a canvas was measured by: where it is (canvas px) and its likeness (absent without a reference). */
export interface CanvasFace {
  /** The midpoint of the eyes, canvas px: what the square and the portrait are centred on. */
  eyes: FacePosition;
  /** The face's extent from its landmarks, canvas px. */
  box: CropRect;
  /** Likeness to the customer, 0-100; `undefined` when there was no reference descriptor to compare with. */
  likeness: number | undefined;
}

/**
 * Finds the largest face of a provider's canvas (domain/headshot-variants.ts) and, given the customer's descriptor,
 * its likeness. The canvas is measured at {@link LIKENESS_SIDE} px wide: its square is the canvas's full width, so
 * the face is seen at the same size as when a 1024 px square was measured at 512 px (the threshold's calibration).
 *
 * @param referenceDescriptor the customer's descriptor (base64 float32); `undefined` for a generation prepared
 *   before likeness existed (the face is then only located; a canvas without one is framed by default)
 * @param threshold minimum likeness, 0-100 (config LIKENESS_THRESHOLD)
 * @returns the face, or `undefined` when there is none and no reference to measure against
 * @throws {LikenessRejectedError} with a reference: no face, a likeness under `threshold`, or a face the square
 *   cannot hold (the likeness is the square's: the face measured must be inside it)
 */
export async function locateAndMeasure(
  canvas: HeadshotCanvas,
  referenceDescriptor: string | undefined,
  threshold: number,
): Promise<CanvasFace | undefined> {
  const pixels = await canvasPixels(canvas, LIKENESS_SIDE);
  const { faces } = await analyzeFaces(pixels);
  const face = faces[0];
  if (!face) {
    if (referenceDescriptor) throw new LikenessRejectedError('The headshot has no face');
    return undefined;
  }
  const s = pixels.scale;
  const [a, b] = face.eyes;
  const eyes = { x: ((a.x + b.x) / 2) * s, y: ((a.y + b.y) / 2) * s };
  const box = {
    left: Math.floor(face.box.x * s),
    top: Math.floor(face.box.y * s),
    width: Math.ceil(face.box.width * s),
    height: Math.ceil(face.box.height * s),
  };
  if (!referenceDescriptor) return { eyes, box, likeness: undefined };
  const likeness = likenessOf(face.descriptor, decodeDescriptor(referenceDescriptor));
  if (likeness < threshold) {
    throw new LikenessRejectedError(`The headshot's likeness ${likeness} is under ${threshold}`, likeness);
  }
  if (!contains(squareRect(canvas, eyes), box)) {
    throw new LikenessRejectedError('The face does not fit in the square headshot', likeness);
  }
  return { eyes, box, likeness };
}
