import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizedPixels } from '../../functions/adapters/images';
import { perceptualHash } from '../../functions/adapters/vision/image-hash';
import {
  DUPLICATE_MAX_DISTANCE,
  duplicatesOf,
  FACE_CROP_MIN_CORRELATION,
  hashDistance,
  SAME_PICTURE_MIN_COSINE,
  samePicture,
} from '../../functions/domain/duplicate-photos';
import {
  decodeFaceCrop,
  FACE_CROP_SIDE,
  faceCropCorrelation,
  OUTSIDE_PICTURE,
} from '../../functions/domain/face-crops';
import {
  bestReferences,
  checkPhotoSet,
  setQuality,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';
import { FIXTURE_PHOTOS } from './duplicate-photos-fixtures';

/**
 * The `duplicate` photo check (docs/decisions/006-duplicate-photos.md): the rule on made-up hashes, and the
 * threshold against every fixture photo — copies of one picture (re-encoded, halved, EXIF-rotated, HEIC) must fall
 * within it and every pair of different photos (test/fixtures/photos and the 33 of test/fixtures/faces, many of them
 * the same person in near-identical poses) outside it. The distances are printed: they are the decision's figures.
 */

const files = FIXTURE_PHOTOS;

/** The same picture, whatever the file: `obama-rotated.jpg` is `obama.jpg` stored rotated, with an EXIF tag. */
const PICTURE: Record<string, string> = {
  'obama-rotated.jpg': 'obama.jpg',
  'obama2.heic': 'obama2.jpg',
};
/** Made from `obama.jpg` but not as a plain copy: letterboxed into 16:9, and cropped to 4:3 (printed, not judged). */
const REFRAMED = ['obama-720p.jpg', 'obama-12mp.jpg'];

const hashOf = async (bytes: Buffer) => perceptualHash(await normalizedPixels(bytes));

describe('perceptual hash distances on the fixtures', () => {
  const hashes = new Map<string, string>();

  beforeAll(async () => {
    for (const { name, path } of files) {
      const bytes = readFileSync(path);
      hashes.set(name, await hashOf(bytes));
      // Copies a customer may upload again: re-saved by an app at JPEG quality 60 and 30, and at half the size.
      // HEIC cannot be re-encoded by sharp's prebuilt libvips: its copy is the JPEG it came from.
      if (name.endsWith('.heic')) continue;
      const upright = sharp(bytes).rotate();
      const { width } = await upright.clone().metadata();
      hashes.set(`${name}#q60`, await hashOf(await upright.clone().jpeg({ quality: 60 }).toBuffer()));
      hashes.set(`${name}#q30`, await hashOf(await upright.clone().jpeg({ quality: 30 }).toBuffer()));
      const half = await upright
        .clone()
        .resize(Math.round((width ?? 0) / 2))
        .jpeg({ quality: 85 })
        .toBuffer();
      // Halves under 256 px on a side are refused as photos (too-small) and have no hash.
      const pixels = await normalizedPixels(half).catch(() => undefined);
      if (pixels) hashes.set(`${name}#half`, await perceptualHash(pixels));
    }
  }, 120_000);

  it('puts every copy of a picture within the threshold and every two different photos well outside it', () => {
    const picture = (name: string) => {
      const file = name.split('#')[0]!;
      return PICTURE[file] ?? file;
    };
    const copies: [number, string, string][] = [];
    const different: [number, string, string][] = [];
    const names = [...hashes.keys()];
    for (const [i, a] of names.entries()) {
      for (const b of names.slice(i + 1)) {
        const distance = hashDistance(hashes.get(a)!, hashes.get(b)!);
        if (picture(a) === picture(b)) copies.push([distance, a, b]);
        // Different photos: the files themselves (their copies would only repeat the pairs), never the reframed.
        else if (!a.includes('#') && !b.includes('#') && ![a, b].some((n) => REFRAMED.includes(n)))
          different.push([distance, a, b]);
      }
    }
    copies.sort((x, y) => y[0] - x[0]);
    different.sort((x, y) => x[0] - y[0]);
    const reframed = REFRAMED.map((n) => [n, hashDistance(hashes.get('obama.jpg')!, hashes.get(n)!)]);
    console.info('duplicate hashes', {
      copies: copies.length,
      maxCopyDistance: copies[0],
      differentPairs: different.length,
      minDifferentDistance: different.slice(0, 5),
      reframedFromObama: Object.fromEntries(reframed),
      threshold: DUPLICATE_MAX_DISTANCE,
    });
    // 41 files less the 2 reframed: every pair but the 2 same-picture pairs.
    expect(different).toHaveLength((39 * 38) / 2 - 2);
    expect(copies[0]![0]).toBeLessThanOrEqual(DUPLICATE_MAX_DISTANCE);
    expect(different[0]![0]).toBeGreaterThan(DUPLICATE_MAX_DISTANCE);
    // The EXIF-rotated and HEIC files are the same upright picture as their originals.
    expect(hashDistance(hashes.get('obama.jpg')!, hashes.get('obama-rotated.jpg')!)).toBeLessThanOrEqual(1);
    expect(hashDistance(hashes.get('obama2.jpg')!, hashes.get('obama2.heic')!)).toBeLessThanOrEqual(1);
  });
});

/** The facts of a good photo with one face, its hash and whatever `overrides` says. */
const photo = (imageHash: string | undefined, overrides: Partial<PhotoFacts> = {}): PhotoFacts => ({
  width: 1200,
  height: 1500,
  readable: true,
  faces: [{ left: 0.3, top: 0.2, right: 0.65, bottom: 0.55 }],
  face: { sharpness: 200, luma: 130, highlights: 0 },
  ...(imageHash ? { imageHash } : {}),
  ...overrides,
});

describe('duplicate rule', () => {
  const A = '0f0f0f0f0f0f0f0f';
  const nearA = '0f0f0f0f0f0f0f0e'; // 1 bit from A
  const B = 'f0f0f0f0f0f0f0f0'; // 64 bits from A

  it('counts differing bits', () => {
    expect(hashDistance(A, A)).toBe(0);
    expect(hashDistance(A, nearA)).toBe(1);
    expect(hashDistance(A, B)).toBe(64);
    expect(() => hashDistance(A, 'abc')).toThrow(RangeError);
    expect(() => hashDistance(A, 'zzzzzzzzzzzzzzzz')).toThrow(RangeError);
  });

  it('keeps the best-scoring copy (the first on a tie), and names it in the others', () => {
    const [a, b, near] = [A, B, nearA].map((imageHash) => ({ imageHash }));
    expect(duplicatesOf([a, b, near], [80, 80, 80])).toEqual([undefined, undefined, 0]);
    expect(duplicatesOf([a, b, near], [60, 80, 90])).toEqual([2, undefined, undefined]);
    expect(duplicatesOf([a, undefined, a], [80, 0, 80])).toEqual([undefined, undefined, 0]);
    // Past the threshold: two pictures.
    const eightBits = '0f0f0f0f0f0f0ff0';
    const nineBits = '0f0f0f0f0f0f0ef0';
    expect(hashDistance(A, eightBits)).toBe(DUPLICATE_MAX_DISTANCE);
    expect(duplicatesOf([a, { imageHash: eightBits }], [80, 80])).toEqual([undefined, 0]);
    expect(duplicatesOf([a, { imageHash: nineBits }], [80, 80])).toEqual([undefined, undefined]);
  });

  it('rejects the later copy as duplicate with a message naming the photo kept, so the rest can be used', () => {
    const checks = checkPhotoSet([photo(A), photo(B), photo(nearA), photo(undefined)]);
    expect(checks.map((c) => c.verdict)).toEqual(['good', 'good', 'rejected', 'good']);
    expect(checks[2]).toEqual({
      verdict: 'rejected',
      score: 0,
      duplicateOf: 0,
      reasons: [
        {
          code: 'duplicate',
          message:
            "This looks like the same picture as photo 1, so we'll only use it once. Please use a different photo.",
        },
      ],
    });
    expect(checks[0]!.duplicateOf).toBeUndefined();
    // The references never hold two copies of one picture.
    expect(bestReferences(checks, 3)).toEqual([0, 1, 3]);
    expect(setQuality(checks)).toBeLessThan(setQuality([checks[0]!, checks[1]!, checks[3]!]));
  });

  it('keeps the better copy and leaves rejected photos out of it', () => {
    // The first copy is small and warned about; the second is the better reference and is kept.
    const checks = checkPhotoSet([photo(A, { width: 400, height: 500 }), photo(nearA)]);
    expect(checks.map((c) => c.verdict)).toEqual(['rejected', 'good']);
    expect(checks[0]!.reasons.map((r) => r.code)).toEqual(['duplicate', 'low_resolution']);
    expect(checks[0]!.reasons[0]!.message).toContain('photo 2');
    // A photo rejected for its own reason is not anyone's original: the copy of it is judged on its own.
    const noFace = checkPhotoSet([photo(A, { faces: [] }), photo(nearA)]);
    expect(noFace.map((c) => c.reasons.map((r) => r.code))).toEqual([['no_face'], []]);
  });
});

describe('duplicate rule by the face (letterboxed, cropped, grainy copies)', () => {
  const centre = (FACE_CROP_SIDE - 1) / 2;
  /** A crop of a smooth made-up picture, seen at `scale` and moved by `shift` cells: how two copies' landmarks differ. */
  const cropOf = (
    picture: (x: number, y: number) => number,
    { scale = 1, shift = 0, outsideRows = 0 } = {},
  ): Uint8Array =>
    Uint8Array.from({ length: FACE_CROP_SIDE ** 2 }, (_, i) => {
      const x = i % FACE_CROP_SIDE;
      const y = Math.floor(i / FACE_CROP_SIDE);
      if (y < outsideRows) return OUTSIDE_PICTURE;
      const value = picture((x - centre) * scale + centre + shift, (y - centre) * scale + centre);
      return Math.max(1, Math.min(255, Math.round(value)));
    });
  const face = (x: number, y: number) =>
    128 + 60 * Math.sin(x / 3) * Math.cos(y / 4) + 30 * Math.sin((x + y) / 5);
  const otherFace = (x: number, y: number) =>
    128 + 60 * Math.cos(x / 2.2 + 1) * Math.sin(y / 3.1) + 20 * (x / 31);
  const base64 = (crop: Uint8Array) => Buffer.from(crop).toString('base64');
  const unit = (angle: number) => [Math.cos(angle), Math.sin(angle), 0];

  it('matches a copy found at another scale and place, and not another picture', () => {
    const crop = cropOf(face);
    expect(faceCropCorrelation(crop, crop)).toBeCloseTo(1, 6);
    // The landmarks of a copy measured 10 % smaller and a cell to the side, with its top rows outside the picture.
    const copy = cropOf(face, { scale: 1 / 1.1, shift: 1, outsideRows: 6 });
    expect(faceCropCorrelation(crop, copy)).toBeGreaterThanOrEqual(FACE_CROP_MIN_CORRELATION);
    expect(faceCropCorrelation(crop, cropOf(otherFace))).toBeLessThan(FACE_CROP_MIN_CORRELATION);
    // Too little of the picture in common, or a flat crop: no match.
    expect(faceCropCorrelation(crop, cropOf(face, { outsideRows: 24 }))).toBe(-1);
    expect(faceCropCorrelation(crop, new Uint8Array(FACE_CROP_SIDE ** 2).fill(128))).toBe(-1);
  });

  it('reads a stored crop, and refuses one of another size', () => {
    const crop = cropOf(face);
    expect(decodeFaceCrop(base64(crop))).toEqual(crop);
    expect(() => decodeFaceCrop(base64(crop.subarray(0, 100)))).toThrow(RangeError);
  });

  it('calls two photos the same picture only when the descriptors agree as well as the crops', () => {
    const crop = base64(cropOf(face));
    const copy = base64(cropOf(face, { scale: 1.08 }));
    const descriptor = unit(0);
    expect(samePicture({ faceCrop: crop, descriptor }, { faceCrop: copy, descriptor })).toBe(true);
    // Another picture of the same face (a photo of the same sitting): descriptors agree, crops do not.
    expect(
      samePicture({ faceCrop: crop, descriptor }, { faceCrop: base64(cropOf(otherFace)), descriptor }),
    ).toBe(false);
    // Alike crops of faces whose descriptors disagree: two people, not a copy.
    const justOver = unit(Math.acos(SAME_PICTURE_MIN_COSINE) - 0.001);
    const justUnder = unit(Math.acos(SAME_PICTURE_MIN_COSINE) + 0.001);
    expect(samePicture({ faceCrop: crop, descriptor }, { faceCrop: copy, descriptor: justOver })).toBe(true);
    expect(samePicture({ faceCrop: crop, descriptor }, { faceCrop: copy, descriptor: justUnder })).toBe(
      false,
    );
    // Without a crop (a check stored before they were kept) only the hash can tell.
    expect(samePicture({ descriptor }, { faceCrop: copy, descriptor })).toBe(false);
    const hash = '0f0f0f0f0f0f0f0f';
    expect(samePicture({ imageHash: hash, descriptor }, { imageHash: hash })).toBe(true);
  });

  it('rejects the lower-scoring copy of a picture by its face, and keeps photos of one sitting', () => {
    const byFace = (imageHash: string, crop: Uint8Array, overrides: Partial<PhotoFacts> = {}) =>
      photo(imageHash, { descriptor: unit(0), faceCrop: base64(crop), ...overrides });
    const checks = checkPhotoSet([
      // A letterboxed copy: a smaller photo (under 1024 px), so it scores lower than the original it copies.
      byFace('00000000ffffffff', cropOf(face, { scale: 1.1, outsideRows: 4 }), { width: 1280, height: 720 }),
      byFace('0f0f0f0f0f0f0f0f', cropOf(face)),
      byFace('f0f0f0f0f0f0f0f0', cropOf(otherFace)),
    ]);
    expect(checks.map((c) => c.verdict)).toEqual(['rejected', 'good', 'good']);
    expect(checks[0]!.duplicateOf).toBe(1);
    expect(checks[0]!.reasons[0]!.message).toContain('photo 2');
    expect(checks[2]!.reasons).toEqual([]);
  });
});
