import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { headAndShoulders, rotatePoint, EYE_LINE, type FramingFace } from '../../domain/framing';
import { HEADSHOT_SIDE } from '../../domain/generation';
import { extractFrame } from '../vision/crop';
import { analyzeFaces, decodeRgb, personMatte, type RgbImage } from '../vision/faces';
import { composite, decontaminate, refineMatte } from '../vision/matte';
import { backdrop } from './local-backdrops';
import { grade, GRADES } from './local-grade';
import { ProviderInvalidOutputError, type HeadshotRequest, type ImageProvider } from './types';

/**
 * The offline `local` provider (docs/architecture.md §4 (image providers) and §8 (faces)): a studio headshot of the
 * customer made from a reference photo with the vision module, so the whole product runs with no API key.
 *
 * 1. The face's landmarks place an eye-level, face-centred head-and-shoulders frame (functions/domain/framing.ts);
 *    the photo is rotated so the eyes are level.
 * 2. The person matte from the segmentation model is tightened and the edge colours decontaminated
 *    (../vision/matte.ts), so no rim of the old background is left around hair and shoulders.
 * 3. The person, graded per style (./local-grade.ts), is composited on the background's plate
 *    (./local-backdrops.ts): studio, gradient, office or outdoor.
 * 4. A vignette per style; split toning for creative.
 *
 * Per slot: another reference (slot mod references), zoom, a small horizontal offset, the plate's palette, light and
 * side, and a brightness jitter, all deterministic per generation and slot.
 */

const SIDE = HEADSHOT_SIDE;
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

/** What one reference photo gives every slot that uses it. */
interface PreparedReference {
  image: RgbImage;
  face: FramingFace;
  matte: Buffer;
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
  return { image, face: analysis.faces[0] ?? guessedFace(image), matte };
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

/** A radial vignette and, for creative, teal-to-magenta split toning, as overlays. */
function finishingLayers(request: HeadshotRequest): { input: Buffer; blend?: 'soft-light' }[] {
  const strength = GRADES[request.style].vignette;
  const svg = (body: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}" viewBox="0 0 ${SIDE} ${SIDE}">${body}</svg>`,
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
}

/**
 * Renders one local headshot (exported for tests, previews and `npm run bench`).
 *
 * @returns a 1024×1024 JPEG (quality 90)
 * @throws {ProviderInvalidOutputError} when no reference photo was given or it cannot be decoded
 */
export async function renderLocalHeadshot(request: HeadshotRequest): Promise<Buffer> {
  const reference = request.references[request.slot % Math.max(1, request.references.length)];
  if (!reference)
    throw new ProviderInvalidOutputError('The local provider needs at least one reference photo');
  const random = randomFrom(`${request.generationId}:${request.slot}`);
  let ref: PreparedReference;
  try {
    ref = await cachedReference(reference);
  } catch (error) {
    throw new ProviderInvalidOutputError(`The local provider could not read a reference: ${String(error)}`);
  }
  const zoom = ZOOMS[request.slot % ZOOMS.length]!;
  const frame = headAndShoulders(ref.face, zoom, (random() - 0.5) * 0.06);
  const framed = await extractFrame(ref.image, frame, SIDE, ref.matte);
  // Where the head lands in the output, for the light behind it.
  const pivot = rotatePoint(frame.pivot, frame.pivot, frame.angle);
  const focus = {
    x: ((pivot.x - frame.left) / frame.side) * SIDE,
    y: EYE_LINE * SIDE,
  };
  const [alpha, plate, person] = await Promise.all([
    refineMatte(framed.alpha!, SIDE),
    backdrop(request.background, SIDE, focus, request.slot, random),
    grade(framed.rgb, SIDE, request.style, 0.97 + random() * 0.06),
  ]);
  // The backdrop takes a lighter version of the same grade, so person and plate share one look.
  const [clean, gradedPlate] = await Promise.all([
    decontaminate(person, alpha, SIDE),
    grade(plate, SIDE, request.style, 1, 0.5),
  ]);
  const pixels = composite(clean, alpha, gradedPlate);
  return sharp(pixels, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .composite(finishingLayers(request))
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/** Creates the offline provider. */
export function createLocalProvider(options: LocalProviderOptions = {}): ImageProvider {
  const latencyMs = options.latencyMs ?? 0;
  return {
    name: 'local',
    async generate(request: HeadshotRequest): Promise<Buffer> {
      if (latencyMs > 0) await sleep(latencyMs);
      return renderLocalHeadshot(request);
    },
  };
}
