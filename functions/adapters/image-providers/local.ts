import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { logger } from '../../common/logger';
import { HEADSHOT_SIDE, LOCAL_PROVIDER } from '../../domain/headshot-images';
import type { Frame } from '../../domain/framing';
import { CANVAS_SIZES, squareRect, type Size } from '../../domain/headshot-variants';
import { composite, decontaminate } from './local-matte';
import { backdrop } from './local-backdrops';
import { grade, GRADES } from './local-grade';
import { cutoutLayer, eyesInFrame, readReference, vignetteLayer, type PersonLayer } from './local-layers';
import { previewMark } from './local-mark';
import { renderLocalEdit } from './local-edits';
import { ProviderInvalidOutputError, type HeadshotRequest, type ImageProvider } from './types';

/**
 * The offline `local` provider (docs/architecture.md §4 (image providers) and §8 (faces)): a studio headshot of the
 * customer made from a reference photo with the vision module, so the whole product runs with no API key.
 *
 * 1. The face's landmarks place an eye-level, face-centred head-and-shoulders frame (functions/domain/framing.ts),
 *    kept within reach of the photo's own pixels (./local-cutout.ts); the photo is rotated so the eyes are level.
 * 2. The person matte from the segmentation model is limited to the customer (no bystanders), tightened and the
 *    edge colours decontaminated (./local-matte.ts), so no rim of the old background is left around hair and
 *    shoulders. A matte that cannot be trusted (it misses the face, separates nothing, or would leave a straight
 *    hard edge: a pasted photo) is not used: another reference is, or a soft vignette around the face
 *    (./local-layers.ts). Only the photo's own pixels are shown, never copies of its edge, and nothing below an
 *    object held in front of the chest (./local-bust.ts).
 * 3. The person, graded per style (./local-grade.ts), is composited on the background's plate
 *    (./local-backdrops.ts): studio, gradient, office or outdoor.
 * 4. A vignette per style; split toning for creative; the "PREVIEW" mark (./local-mark.ts), because these are
 *    composites of the customer's own photos, not AI headshots.
 * 5. Like the `openai` provider, it answers a portrait canvas (domain/headshot-variants.ts): the composite is made
 *    on a square as tall as the canvas, framed looser by the canvas's width : height so the face keeps the size it
 *    has in a square of the canvas's width, and the canvas is cut from it around the face. The mark sits in the
 *    corner of the square FinishHeadshot will cut, so every download carries it.
 *
 * Per slot: another reference (slot mod references), zoom, a small horizontal offset, the plate's palette, light and
 * side, and a brightness jitter, all deterministic per generation and slot.
 */

const ZOOMS = [1, 0.9, 1.1, 0.95, 1.05, 0.86];

/** A deterministic pseudo-random stream (mulberry32) seeded from text: the same slot always looks the same. */
function randomFrom(seedText: string): () => number {
  let seed = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A radial vignette and, for creative, teal-to-magenta split toning, as overlays. */
function finishingLayers(request: HeadshotRequest, side: number): { input: Buffer; blend?: 'soft-light' }[] {
  const strength = GRADES[request.style].vignette;
  const svg = (body: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">${body}</svg>`,
    );
  const layers: { input: Buffer; blend?: 'soft-light' }[] = [
    {
      input: svg(
        `<defs><radialGradient id="v" cx="0.5" cy="0.42" r="0.78"><stop offset="0.5" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${strength}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#v)"/>`,
      ),
    },
  ];
  if (request.style === 'creative') {
    layers.push({
      input: svg(
        `<defs><linearGradient id="t" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#db2777"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#t)" opacity="0.2"/>`,
      ),
      blend: 'soft-light',
    });
  }
  return layers;
}

/** Options of {@link createLocalProvider}. */
export interface LocalProviderOptions {
  /** Fixed extra latency per image, in ms (config LOCAL_PROVIDER_LATENCY_MS; demos and benchmarks). Default 0. */
  latencyMs?: number;
  /** What each slot's variation is drawn from (config LOCAL_PROVIDER_VARIATION; {@link variationSeed}). */
  variation?: LocalVariation;
}

/** See {@link variationSeed}. */
export type LocalVariation = 'generation' | 'request';

/**
 * The text a slot's variation (offset, palette, light, jitter) is drawn from. `generation`: the generation id and the
 * slot, so two generations of the same photos look different. `request`: a hash of everything the request asks for
 * (photos, prompt, choices, slot, canvas), so the same request renders the same pixels (config
 * LOCAL_PROVIDER_VARIATION).
 */
export function variationSeed(request: HeadshotRequest, variation: LocalVariation = 'generation'): string {
  if (variation === 'generation') return `${request.generationId}:${request.slot}`;
  const hash = createHash('sha256');
  for (const reference of request.references) hash.update(reference);
  const choices = [
    request.prompt,
    request.style,
    request.background,
    request.slot,
    request.resolution ?? 'standard',
  ];
  return hash.update(JSON.stringify(choices)).digest('hex');
}

/** One local headshot and how it was made (see {@link composeLocalHeadshot}). */
export interface LocalHeadshot {
  /** The portrait canvas (1024×1280; 1664×2080 at high resolution), JPEG quality 90, with the "PREVIEW" mark. */
  jpeg: Buffer;
  /** The alpha the person was composited with, one byte per pixel, {@link side} × {@link side}. */
  alpha: Buffer;
  /** Side of the square the composite was made on (the canvas's height), px. */
  side: number;
  method: PersonLayer['method'];
  /** Index into the request's references of the photo used. */
  reference: number;
  /** The frame the reference was cut with, in its px (tests map what they marked in the photo into the headshot). */
  frame: Frame;
}

/**
 * Renders one local headshot and says how (exported for tests, previews and `npm run bench`). The slot's reference
 * (slot mod references) is cut out when its matte can be trusted; otherwise the other references are tried, best
 * first. A reference with an object held in front of the chest gives only a bust ending above it (./local-bust.ts),
 * used when no other reference can be cut out. When none can be cut out cleanly, the slot's reference is shown as a
 * soft vignette. Never a photo
 * pasted whole: a cutout whose matte has a straight hard edge of MAX_STRAIGHT_EDGE (./local-layers.ts) of the side or more is
 * not used.
 *
 * @throws {ProviderInvalidOutputError} when no reference photo was given or one cannot be decoded
 */
export async function composeLocalHeadshot(
  request: HeadshotRequest,
  variation: LocalVariation = 'generation',
): Promise<LocalHeadshot> {
  const count = request.references.length;
  if (count === 0)
    throw new ProviderInvalidOutputError('The local provider needs at least one reference photo');
  const preferred = request.slot % count;
  const random = randomFrom(variationSeed(request, variation));
  const canvas: Size = CANVAS_SIZES.flexible[request.resolution ?? 'standard'];
  const side = canvas.height;
  // Framed looser by width : height: the face then has the size it has in a square as wide as the canvas.
  const zoom = ZOOMS[request.slot % ZOOMS.length]! * (canvas.width / side);
  const shift = (random() - 0.5) * 0.06;
  const order = [preferred, ...Array.from({ length: count }, (_, i) => i).filter((i) => i !== preferred)];
  let layer: PersonLayer | undefined;
  let used = preferred;
  // A photo with something held in front of the chest gives only a bust that ends above it: the customer's other
  // photos go first (./local-bust.ts).
  let bust: { layer: PersonLayer; index: number } | undefined;
  for (const index of order) {
    const ref = await readReference(request.references[index]!);
    const cutout = await cutoutLayer(ref, zoom, shift, side);
    if (cutout && ref.occluder !== undefined) bust ??= { layer: cutout, index };
    else if (cutout) {
      layer = cutout;
      used = index;
      break;
    }
  }
  if (!layer && bust) ({ layer, index: used } = bust);
  if (!layer) {
    const ref = await readReference(request.references[preferred]!);
    logger.info('Local provider: no reference could be cut out cleanly, using a vignette', {
      generationId: request.generationId,
      slot: request.slot,
      problem: ref.person.problem ?? 'straight-edge',
    });
    layer = await vignetteLayer(ref, zoom, shift, side);
  }
  const { frame, alpha } = layer;
  // Where the head lands in the output, for the light behind it.
  const focus = eyesInFrame(frame, side);
  const [plate, person] = await Promise.all([
    backdrop(request.background, side, focus, request.slot, random),
    grade(layer.rgb, side, request.style, 0.97 + random() * 0.06),
  ]);
  // The backdrop takes a lighter version of the same grade, so person and plate share one look. A vignette keeps
  // its photo's own background on purpose, so its edge colours are left as they are.
  const [clean, gradedPlate] = await Promise.all([
    layer.method === 'cutout' ? decontaminate(person, alpha, side) : person,
    grade(plate, side, request.style, 1, 0.5),
  ]);
  const pixels = composite(clean, alpha, gradedPlate);
  // The canvas around the face, then the mark in the corner of the square FinishHeadshot cuts from it.
  const left = Math.round(Math.min(Math.max(focus.x - canvas.width / 2, 0), side - canvas.width));
  // sharp composites after extracting, so the side-sized overlays go on first, in a pipeline of their own (whose
  // raw output has the overlays' alpha channel: dropped with the extract).
  const layered = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .composite(finishingLayers(request, side))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const finished = await sharp(layered.data, {
    raw: { width: side, height: side, channels: layered.info.channels },
  })
    .extract({ left, top: 0, width: canvas.width, height: canvas.height })
    .removeAlpha()
    .raw()
    .toBuffer();
  const square = squareRect(canvas, { x: focus.x - left, y: focus.y });
  const mark = await sharp(previewMark(HEADSHOT_SIDE)).resize(square.width, square.height).png().toBuffer();
  const jpeg = await sharp(finished, { raw: { width: canvas.width, height: canvas.height, channels: 3 } })
    .composite([{ input: mark, left: square.left, top: square.top }])
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return { jpeg, alpha, side, method: layer.method, reference: used, frame };
}

/**
 * Renders one local headshot (see {@link composeLocalHeadshot}).
 *
 * @returns the portrait canvas as a JPEG (quality 90): 1024×1280, or 1664×2080 for the high-resolution option
 * @throws {ProviderInvalidOutputError} when no reference photo was given or one cannot be decoded
 */
export async function renderLocalHeadshot(
  request: HeadshotRequest,
  variation: LocalVariation = 'generation',
): Promise<Buffer> {
  return (await composeLocalHeadshot(request, variation)).jpeg;
}

/** Creates the offline provider: a composite of the customer's photos per slot, or a marked preview of an edit. */
export function createLocalProvider(options: LocalProviderOptions = {}): ImageProvider {
  const latencyMs = options.latencyMs ?? 0;
  const variation = options.variation ?? 'generation';
  return {
    name: LOCAL_PROVIDER,
    async generate(request: HeadshotRequest): Promise<Buffer> {
      if (latencyMs > 0) await sleep(latencyMs);
      // An edit is a marked preview made from the headshot itself (./local-edits.ts), not a new composite.
      if (request.edit) return renderLocalEdit(request.edit.image, request.edit.request);
      return renderLocalHeadshot(request, variation);
    },
  };
}
