import { createHash } from 'node:crypto';
import { UnusablePhotoError } from '../../../../functions/adapters/images';
import type { CachedPhotoCheck } from '../../../../functions/adapters/photo-checks';
import type { RgbImage } from '../../../../functions/adapters/support/pixels';
import type { FaceAnalysis } from '../../../../functions/adapters/support/vision-models/faces';
import type { AnalyzedPixels, PhotoPixels } from '../../../../functions/adapters/vision/photo-facts';
import { FACE_CROP_SIDE } from '../../../../functions/domain/face-crops';
import type { Frame, StoredFraming } from '../../../../functions/domain/framing';
import type { PhotoFacts } from '../../../../functions/domain/photo-checks';
import type { PhotoProblem } from '../../../../functions/domain/photos';
import { quotaRules } from '../../../../functions/adapters/quotas';
import type { CheckPhotosPorts } from '../../../../functions/use-cases/check-photos';
import type { FakeQuotas } from './quotas';
import type { FakeBuckets } from './storage';

/** What a fake photo shows: whose face (default `a`), how many faces, and whether it decodes at all. */
export interface PhotoSpec {
  /** The person, `a`-`d`: the same letter gives the same identity descriptor. */
  person?: string;
  /** Faces in the picture (default 1; 2 = a rival face as large as the first). */
  faces?: number;
  /** Why it does not decode (the images adapter's `UnusablePhotoError`). */
  unusable?: PhotoProblem;
  /** Tells two pictures of one person apart (the same spec is the same picture: the same perceptual hash). */
  shot?: number;
  /** The face's sharpness (default 200; under 50 is blurry). */
  sharpness?: number;
}

/** A fake photo's bytes: its spec as JSON, which the fake decoder and models below read back. */
export const photo = (spec: PhotoSpec = {}): Buffer => Buffer.from(JSON.stringify(spec));

const WIDTH = 800;
const HEIGHT = 1000;

/** A unit descriptor per person: people are orthogonal, so two of them never pass for one. */
export function descriptorOf(person: string): number[] {
  const axis = person.charCodeAt(0) - 'a'.charCodeAt(0);
  return [0, 1, 2, 3].map((i) => (i === axis ? 1 : 0));
}

const FRAMING: StoredFraming = {
  width: WIDTH,
  height: HEIGHT,
  eyes: [
    { x: 340, y: 360 },
    { x: 460, y: 360 },
  ],
  forehead: { x: 400, y: 240 },
  chin: { x: 400, y: 560 },
};

/**
 * A face crop per picture (functions/domain/face-crops.ts): pseudo-random cells seeded by the picture's bytes, so one
 * spec's crop is itself and two pictures' crops do not correlate, whoever they show.
 */
function faceCropOf(bytes: Buffer): string {
  const cells = Buffer.alloc(FACE_CROP_SIDE * FACE_CROP_SIDE);
  for (let block = 0; block * 32 < cells.length; block++)
    createHash('sha256')
      .update(bytes)
      .update(String(block))
      .digest()
      .copy(cells, block * 32);
  return Buffer.from(cells.map((v) => Math.max(1, v))).toString('base64');
}

function specOf(bytes: Buffer): PhotoSpec {
  try {
    return JSON.parse(bytes.toString()) as PhotoSpec;
  } catch {
    throw new UnusablePhotoError('not-an-image');
  }
}

/**
 * The images adapter's decoder and the vision models, faked from the photo's {@link PhotoSpec}: a readable photo of
 * 1600 × 2000 px (upright copy 800 × 1000), its faces, their measurements, the person's descriptor, a perceptual
 * hash per picture, and the largest face's framing. Records which photos the models ran on and every crop made.
 */
export class FakeVision {
  /** The specs the models ran on, in order. */
  readonly analysed: PhotoSpec[] = [];
  /** Crops made with {@link encodeReferenceCrop}: the frame and side asked for. */
  readonly crops: { frame: Frame; side: number }[] = [];

  readonly normalizedPixels = async (bytes: Buffer): Promise<PhotoPixels> => {
    const spec = specOf(bytes);
    if (spec.unusable) throw new UnusablePhotoError(spec.unusable);
    return { data: bytes, width: WIDTH, height: HEIGHT, sourceWidth: WIDTH * 2, sourceHeight: HEIGHT * 2 };
  };

  readonly analyzePhotoPixels = async (pixels: PhotoPixels): Promise<AnalyzedPixels> => {
    const spec = specOf(pixels.data);
    this.analysed.push(spec);
    const count = spec.faces ?? 1;
    const box = { left: 0.3, top: 0.2, right: 0.7, bottom: 0.6 };
    const facts: PhotoFacts = {
      width: pixels.sourceWidth,
      height: pixels.sourceHeight,
      readable: true,
      imageHash: createHash('sha256').update(pixels.data).digest('hex').slice(0, 16),
      faces: Array.from({ length: count }, () => box),
      ...(count > 0
        ? {
            face: { sharpness: spec.sharpness ?? 200, luma: 120, highlights: 0 },
            descriptor: descriptorOf(spec.person ?? 'a'),
            faceCrop: faceCropOf(pixels.data),
          }
        : {}),
    };
    const image: RgbImage = { data: pixels.data, width: pixels.width, height: pixels.height };
    const analysis = { width: WIDTH, height: HEIGHT, faces: [] } as FaceAnalysis;
    return { facts, image, analysis, ...(count > 0 ? { framing: FRAMING } : {}) };
  };

  /** adapters/images.ts `encodeReferenceCrop`: the crop's bytes say which photo and side it was made from. */
  readonly encodeReferenceCrop = async (image: RgbImage, frame: Frame, side: number): Promise<Buffer> => {
    this.crops.push({ frame, side });
    return Buffer.from(`crop ${side}px of ${image.data.toString()}`);
  };
}

/** What `POST /api/photo-checks` stores for a photo showing `spec`: the fake models' facts and framing. */
export async function photoCheckOf(spec: PhotoSpec = {}): Promise<CachedPhotoCheck> {
  const vision = new FakeVision();
  const { facts, framing } = await vision.analyzePhotoPixels(await vision.normalizedPixels(photo(spec)));
  return { facts, ...(framing ? { framing } : {}) };
}

/**
 * The photo-check cache (adapters/photo-checks.ts): one check per upload key, answered only while its ETag matches.
 */
export class FakePhotoCheckCache {
  readonly checks = new Map<string, CachedPhotoCheck & { etag: string }>();

  /** Stores a check as `POST /api/photo-checks` would have. */
  seed(key: string, etag: string, check: CachedPhotoCheck): void {
    this.checks.set(key, { ...structuredClone(check), etag });
  }

  readonly cachedPhotoChecks = async (
    _sub: string,
    uploads: readonly { key: string; etag: string }[],
  ): Promise<Map<string, CachedPhotoCheck>> => {
    const found = new Map<string, CachedPhotoCheck>();
    for (const { key, etag } of uploads) {
      const check = this.checks.get(key);
      if (check && check.etag === etag) {
        const { etag: _etag, ...rest } = structuredClone(check);
        found.set(key, rest);
      }
    }
    return found;
  };

  readonly savePhotoFacts = async (
    _sub: string,
    key: string,
    etag: string,
    facts: PhotoFacts,
    framing?: StoredFraming,
  ): Promise<void> => {
    this.checks.set(key, { facts: structuredClone(facts), etag, ...(framing ? { framing } : {}) });
  };
}

/**
 * The photo check's ports (use-cases/check-photos.ts) on in-memory objects, cache, quotas and vision: photo checks
 * are charged to the `photoChecks` quota rule of adapters/quotas.ts.
 */
export function checkPhotosPortsOf(fakes: {
  buckets: FakeBuckets;
  cache: FakePhotoCheckCache;
  quotas: FakeQuotas;
  vision: FakeVision;
}): CheckPhotosPorts {
  const { buckets, cache, quotas, vision } = fakes;
  return {
    headObject: buckets.headObject,
    getObject: buckets.getObject,
    cachedPhotoChecks: cache.cachedPhotoChecks,
    savePhotoFacts: cache.savePhotoFacts,
    consumePhotoChecks: (sub, amount) => quotas.consumeQuota({ sub }, quotaRules().photoChecks, amount),
    normalizedPixels: vision.normalizedPixels,
    analyzePhotoPixels: vision.analyzePhotoPixels,
  };
}
