import { createHash } from 'node:crypto';
import { logger } from '../../common/logger';
import type { Frame, FramingFace } from '../../domain/framing';
import { HEADSHOT_SIDE } from '../../domain/headshot-images';
import { extractFrame } from '../support/crop';
import { analyzeFaces, decodeRgb, personMatte, type RgbImage } from '../support/vision-models/faces';
import { bustCoverage, bustZoom, cutBelow, findOccluder } from './local-bust';
import { refineMatte } from './local-matte';
import { longestStraightEdge } from './local-straight-edges';
import { faceHeightOf, fittedFrame, isolatePerson, vignetteMatte, type IsolatedPerson } from './local-cutout';
import { ProviderInvalidOutputError } from './types';

/**
 * The person layer of an offline headshot (./local.ts): a reference photo analysed once (face landmarks, person
 * matte limited to the customer: ./local-cutout.ts), then per slot either the person cut out of it or, when its
 * matte cannot be trusted, a soft face-centred vignette of it. Both framed head-and-shoulders in a square of `side`
 * px (default 1024; ./local.ts renders larger and cuts its portrait canvas from it).
 */

const SIDE = HEADSHOT_SIDE;

/** What one reference photo gives every slot that uses it. */
export interface PreparedReference {
  image: RgbImage;
  face: FramingFace;
  /** The person matte limited to the customer, or why it cannot be used (./local-cutout.ts). */
  person: IsolatedPerson;
  /**
   * The top of an object held in front of the chest, in face heights below the eyes (./local-bust.ts): the matte
   * then ends above it, and the provider prefers the customer's other photos.
   */
  occluder?: number;
}

/** A guess for a photo without a detectable face: an ordinary portrait's proportions, upper centre. */
function guessedFace(image: RgbImage): FramingFace {
  const unit = Math.min(image.width, image.height) / 10;
  const cx = image.width / 2;
  const eyeY = image.height * 0.35;
  return {
    eyes: [
      { x: cx - unit * 0.65, y: eyeY },
      { x: cx + unit * 0.65, y: eyeY },
    ],
    forehead: { x: cx, y: eyeY - unit * 1.5 },
    chin: { x: cx, y: eyeY + unit * 2.2 },
  };
}

async function prepare(reference: Buffer): Promise<PreparedReference> {
  const image = await decodeRgb(reference);
  const [analysis, matte] = await Promise.all([analyzeFaces(image), personMatte(image)]);
  const found = analysis.faces[0];
  if (!found) return { image, face: guessedFace(image), person: { matte, problem: 'no-face' } };
  const occluder = findOccluder(image, found);
  if (occluder === undefined)
    return { image, face: found, person: isolatePerson(matte, image.width, image.height, found) };
  const bust = cutBelow(matte, image.width, image.height, found, occluder);
  return { image, face: found, person: isolatePerson(bust, image.width, image.height, found), occluder };
}

// The six slots of a generation share at most three references: analyse each once per warm environment.
const prepared = new Map<string, Promise<PreparedReference>>();
function cachedReference(reference: Buffer): Promise<PreparedReference> {
  const key = createHash('sha256').update(reference).digest('hex');
  let entry = prepared.get(key);
  if (!entry) {
    entry = prepare(reference);
    prepared.set(key, entry);
    entry.catch(() => prepared.delete(key));
    if (prepared.size > 6) prepared.delete(prepared.keys().next().value!);
  }
  return entry;
}

/** A reference, prepared (cached), or {@link ProviderInvalidOutputError} when it cannot be read. */
export async function readReference(reference: Buffer): Promise<PreparedReference> {
  try {
    return await cachedReference(reference);
  } catch (error) {
    throw new ProviderInvalidOutputError(`The local provider could not read a reference: ${String(error)}`);
  }
}

/** A straight hard edge this long (share of the side) in a cutout's matte is a photo's border, not a person. */
export const MAX_STRAIGHT_EDGE = 0.4;

/** The person layer of one headshot: framed pixels, the alpha they are laid on the backdrop with, and how. */
export interface PersonLayer {
  rgb: Buffer;
  alpha: Buffer;
  frame: Frame;
  /** `cutout`: the person cut out by the matte; `vignette`: a soft ellipse of the photo around the face. */
  method: 'cutout' | 'vignette';
}

/** Where the eyes' centre lands in the headshot, px (the frame is rotated about it, so it does not move). */
export const eyesInFrame = (frame: Frame, side = SIDE) => ({
  x: ((frame.pivot.x - frame.left) / frame.side) * side,
  y: ((frame.pivot.y - frame.top) / frame.side) * side,
});

/** The person cut out of a reference, or `undefined` when its matte cannot be trusted for this frame. */
export async function cutoutLayer(
  ref: PreparedReference,
  zoom: number,
  shift: number,
  side = SIDE,
): Promise<PersonLayer | undefined> {
  if (ref.person.problem) return undefined;
  const occluder = ref.occluder;
  const z = occluder === undefined ? zoom : bustZoom(zoom, occluder);
  const frame = fittedFrame(ref.face, z, shift, ref.image.width, ref.image.height);
  const framed = await extractFrame(ref.image, frame, side, ref.person.matte);
  const refined = await refineMatte(framed.alpha!, side);
  // Faded inside the photo's edges only now: refined after, the fade would turn back into a hard line.
  const coverage = bustCoverage(
    frame,
    ref.image,
    side,
    occluder === undefined ? undefined : { face: ref.face, occluder },
  );
  const alpha = Buffer.alloc(refined.length);
  for (let i = 0; i < alpha.length; i++) alpha[i] = Math.round((refined[i]! * coverage[i]!) / 255);
  const edge = longestStraightEdge(alpha, side, side);
  if (edge.length >= MAX_STRAIGHT_EDGE * side) {
    logger.info('Local provider: a cutout with a straight hard edge was not used', { edge });
    return undefined;
  }
  return { rgb: framed.rgb, alpha, frame, method: 'cutout' };
}

/** The reference as a soft face-centred vignette (./local-cutout.ts), for when no cutout can be trusted. */
export async function vignetteLayer(
  ref: PreparedReference,
  zoom: number,
  shift: number,
  side = SIDE,
): Promise<PersonLayer> {
  const frame = fittedFrame(ref.face, zoom, shift, ref.image.width, ref.image.height);
  const framed = await extractFrame(ref.image, frame, side);
  const scale = side / frame.side;
  const oval = vignetteMatte(side, {
    pivot: eyesInFrame(frame, side),
    height: faceHeightOf(ref.face) * scale,
  });
  const coverage = bustCoverage(frame, ref.image, side);
  const alpha = Buffer.alloc(oval.length);
  for (let i = 0; i < alpha.length; i++) alpha[i] = Math.round((oval[i]! * coverage[i]!) / 255);
  return { rgb: framed.rgb, alpha, frame, method: 'vignette' };
}
