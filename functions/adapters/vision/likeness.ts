import { decodeDescriptor, LikenessRejectedError, likenessOf } from '../../domain/likeness';
import {
  contains,
  squareRect,
  type CropRect,
  type FacePosition,
  type Size,
} from '../../domain/headshot-variants';
import { decodeRgb, type RgbImage } from '../support/pixels';
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
 * @param pixels the headshot's pixels at {@link LIKENESS_SIDE} px (adapters/images.ts `headshotPixels`)
 * @param referenceDescriptor the customer's descriptor (base64 float32)
 * @param threshold minimum likeness, 0-100 (config LIKENESS_THRESHOLD)
 * @returns the likeness, 0-100
 * @throws {LikenessRejectedError} when the headshot has no face, or a likeness under `threshold`
 */
export async function requireLikeness(
  pixels: RgbImage,
  referenceDescriptor: string,
  threshold: number,
): Promise<number> {
  const { faces } = await analyzeFaces(pixels);
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
 * A provider's canvas scaled for the face models (adapters/headshot-files.ts `canvasPixels`): `scale` maps its px
 * back to the canvas's (canvas px = analysed px × scale).
 */
export interface ScaledPixels extends RgbImage {
  scale: number;
}

/**
 * Finds the largest face of a provider's canvas (domain/headshot-variants.ts) and, given the customer's descriptor,
 * its likeness. The canvas is measured at {@link LIKENESS_SIDE} px wide: its square is the canvas's full width, so
 * the face is seen at the same size as when a 1024 px square was measured at 512 px (the threshold's calibration).
 *
 * @param pixels the canvas at {@link LIKENESS_SIDE} px wide
 * @param canvas the canvas's own size, px: the square the face must fit is cut from it
 * @param referenceDescriptor the customer's descriptor (base64 float32); `undefined` for a generation prepared
 *   before likeness existed (the face is then only located; a canvas without one is framed by default)
 * @param threshold minimum likeness, 0-100 (config LIKENESS_THRESHOLD)
 * @returns the face, or `undefined` when there is none and no reference to measure against
 * @throws {LikenessRejectedError} with a reference: no face, a likeness under `threshold`, or a face the square
 *   cannot hold (the likeness is the square's: the face measured must be inside it)
 */
export async function locateAndMeasure(
  pixels: ScaledPixels,
  canvas: Size,
  referenceDescriptor: string | undefined,
  threshold: number,
): Promise<CanvasFace | undefined> {
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

/**
 * The identity descriptor (unit length, model `DESCRIPTOR_MODEL`) of the largest face in a reference crop, as the
 * current model sees it: what a generation's reference descriptor is recomputed from when it was made by another
 * model.
 *
 * @param reference a reference crop's bytes (JPEG)
 * @returns `undefined` when the model finds no face
 * @throws {Error} when the bytes do not decode
 */
export async function referenceFaceDescriptor(reference: Buffer): Promise<number[] | undefined> {
  return (await analyzeFaces(await decodeRgb(reference))).faces[0]?.descriptor;
}
