import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizedPixels } from '../../functions/adapters/images';
import { perceptualHash } from '../../functions/adapters/vision/image-hash';
import { DUPLICATE_MAX_DISTANCE, duplicatesOf, hashDistance } from '../../functions/domain/duplicate-photos';
import {
  bestReferences,
  checkPhotoSet,
  setQuality,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';

/**
 * The `duplicate` photo check (docs/decisions/006-duplicate-photos.md): the rule on made-up hashes, and the
 * threshold against every fixture photo — copies of one picture (re-encoded, halved, EXIF-rotated, HEIC) must fall
 * within it and every pair of different photos (test/fixtures/photos and the 33 of test/fixtures/faces, many of them
 * the same person in near-identical poses) outside it. The distances are printed: they are the decision's figures.
 */

const FIXTURES = new URL('../fixtures/', import.meta.url);
const DIRS = ['photos', 'faces'] as const;
const files = DIRS.flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, FIXTURES))
    .filter((name) => /\.(jpe?g|heic)$/.test(name))
    .map((name) => ({ name, path: new URL(`${dir}/${name}`, FIXTURES) })),
);

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

describe('duplicate rule', () => {
  const A = '0f0f0f0f0f0f0f0f';
  const nearA = '0f0f0f0f0f0f0f0e'; // 1 bit from A
  const B = 'f0f0f0f0f0f0f0f0'; // 64 bits from A
  const photo = (imageHash: string | undefined, overrides: Partial<PhotoFacts> = {}): PhotoFacts => ({
    width: 1200,
    height: 1500,
    readable: true,
    faces: [{ left: 0.3, top: 0.2, right: 0.65, bottom: 0.55 }],
    face: { sharpness: 200, luma: 130, highlights: 0 },
    ...(imageHash ? { imageHash } : {}),
    ...overrides,
  });

  it('counts differing bits', () => {
    expect(hashDistance(A, A)).toBe(0);
    expect(hashDistance(A, nearA)).toBe(1);
    expect(hashDistance(A, B)).toBe(64);
    expect(() => hashDistance(A, 'abc')).toThrow(RangeError);
    expect(() => hashDistance(A, 'zzzzzzzzzzzzzzzz')).toThrow(RangeError);
  });

  it('keeps the best-scoring copy (the first on a tie), and names it in the others', () => {
    expect(duplicatesOf([A, B, nearA], [80, 80, 80])).toEqual([undefined, undefined, 0]);
    expect(duplicatesOf([A, B, nearA], [60, 80, 90])).toEqual([2, undefined, undefined]);
    expect(duplicatesOf([A, undefined, A], [80, 0, 80])).toEqual([undefined, undefined, 0]);
    // Past the threshold: two pictures.
    const eightBits = '0f0f0f0f0f0f0ff0';
    const nineBits = '0f0f0f0f0f0f0ef0';
    expect(hashDistance(A, eightBits)).toBe(DUPLICATE_MAX_DISTANCE);
    expect(duplicatesOf([A, eightBits], [80, 80])).toEqual([undefined, 0]);
    expect(duplicatesOf([A, nineBits], [80, 80])).toEqual([undefined, undefined]);
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
