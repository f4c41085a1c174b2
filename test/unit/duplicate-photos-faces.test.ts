import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizedPixels } from '../../functions/adapters/images';
import { analyzePhotoPixels } from '../../functions/adapters/vision/photo-facts';
import { decodeFaceCrop, faceCropCorrelation } from '../../functions/domain/face-crops';
import {
  FACE_CROP_MIN_CORRELATION,
  SAME_PICTURE_MIN_COSINE,
  samePicture,
} from '../../functions/domain/duplicate-photos';
import { cosine } from '../../functions/domain/likeness';
import type { PhotoFacts } from '../../functions/domain/photo-checks';
import { FIXTURE_PHOTOS } from './duplicate-photos-fixtures';

/**
 * Near-duplicates on the fixtures (docs/decisions/024-near-duplicates.md): copies of one picture made the ways a
 * customer's apps make them — resized, recompressed, letterboxed into 16:9, cropped, upscaled with grain — must be
 * the same picture to the duplicate check by their faces (descriptors and aligned face crops), and no two different
 * photos of test/fixtures/photos and test/fixtures/faces (7 people, 33 photos, many of one sitting) may be. Both
 * distributions are printed: they are the decision's figures.
 *
 * The face models run once per image (one pass): each fixture, and one copy of it, the kinds taken in turn so each
 * kind is made of about 8 fixtures. `DUPLICATE_COPIES=all` makes every kind of every fixture (about 230 model runs,
 * ~3 min on the 2-core machine): the measurement the decision record reports.
 */

const files = FIXTURE_PHOTOS;

/** Files made from another fixture: the same picture (EXIF-rotated, HEIC, letterboxed, an upscaled 4:3 crop). */
const PICTURE: Record<string, string> = {
  'obama-rotated.jpg': 'obama.jpg',
  'obama2.heic': 'obama2.jpg',
  'obama-720p.jpg': 'obama.jpg',
  'obama-12mp.jpg': 'obama.jpg',
};

/** A seeded generator (LCG, Numerical Recipes' constants) and a standard normal from it (Box-Muller). */
function gaussianNoise(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

type Upright = { data: Buffer; width: number; height: number; channels: 3 };
const raw = ({ width, height, channels }: Upright) => ({ raw: { width, height, channels } });

/** The copies of the issue, each from the upright pixels of a fixture, encoded as a customer's app would. */
const COPIES: Record<string, (image: Upright) => Promise<Buffer>> = {
  resized: (image) =>
    sharp(image.data, raw(image))
      .resize(Math.round(image.width * 0.6))
      .jpeg({ quality: 85 })
      .toBuffer(),
  recompressed: (image) => sharp(image.data, raw(image)).jpeg({ quality: 30 }).toBuffer(),
  letterboxed: (image) =>
    sharp(image.data, raw(image))
      .resize(1280, 720, { fit: 'contain', background: '#000' })
      .jpeg({ quality: 85 })
      .toBuffer(),
  // 80 % of the width and height, nearer the top than the bottom (where the face of a portrait is).
  cropped: (image) => {
    const width = Math.round(image.width * 0.8);
    const height = Math.round(image.height * 0.8);
    const region = {
      left: Math.round((image.width - width) / 2),
      top: Math.round((image.height - height) / 4),
    };
    return sharp(image.data, raw(image))
      .extract({ ...region, width, height })
      .jpeg({ quality: 85 })
      .toBuffer();
  },
  // Upscaled twice, then grain: seeded Gaussian noise of 10 grey levels on every channel.
  grainy: async (image) => {
    const width = image.width * 2;
    const height = image.height * 2;
    const big = await sharp(image.data, raw(image)).resize(width, height).raw().toBuffer();
    const noise = gaussianNoise(42);
    for (let i = 0; i < big.length; i++)
      big[i] = Math.max(0, Math.min(255, Math.round(big[i]! + 10 * noise())));
    return sharp(big, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  },
};
const KINDS = Object.keys(COPIES);

/** The person a fixture shows: `personNN` of test/fixtures/faces, the name's first word in test/fixtures/photos. */
const personOf = (name: string) => /^(person\d+|[a-z]+)/.exec(name)![1]!;

interface Measured {
  name: string;
  picture: string;
  copy?: string;
  facts: PhotoFacts;
}

interface Pair {
  a: string;
  b: string;
  correlation: number;
  cosine: number;
  same: boolean;
}

/** One pair's figures; the crops are compared only from `minCosine` up (~5 ms a pair), as the rule does. */
const measure = (a: Measured, b: Measured, minCosine = -1): Pair => {
  const crops = [a.facts.faceCrop!, b.facts.faceCrop!].map(decodeFaceCrop);
  const similarity = cosine(a.facts.descriptor!, b.facts.descriptor!);
  return {
    a: a.copy ? `${a.name}#${a.copy}` : a.name,
    b: b.copy ? `${b.name}#${b.copy}` : b.name,
    correlation:
      similarity >= minCosine ? Number(faceCropCorrelation(crops[0]!, crops[1]!).toFixed(3)) : Number.NaN,
    cosine: Number(similarity.toFixed(4)),
    same: samePicture(a.facts, b.facts),
  };
};

const analyse = async (bytes: Buffer) => (await analyzePhotoPixels(await normalizedPixels(bytes))).facts;

describe('near-duplicates on the fixtures, by their faces', () => {
  const measured: Measured[] = [];
  const all = process.env.DUPLICATE_COPIES === 'all';

  beforeAll(async () => {
    for (const [index, { name, path }] of files.entries()) {
      const bytes = readFileSync(path);
      const picture = PICTURE[name] ?? name;
      measured.push({ name, picture, facts: await analyse(bytes) });
      // Files that are already copies get none of their own; HEIC cannot be re-encoded by sharp's prebuilt libvips.
      if (PICTURE[name] || name.endsWith('.heic')) continue;
      const { data, info } = await sharp(bytes)
        .rotate()
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const upright: Upright = { data, width: info.width, height: info.height, channels: 3 };
      for (const copy of all ? KINDS : [KINDS[index % KINDS.length]!]) {
        const bytes = await COPIES[copy]!(upright);
        // A copy resized under 256 px on a side is refused as a photo (too-small) before any duplicate check.
        if (
          Math.min(
            ...(await sharp(bytes)
              .metadata()
              .then((m) => [m.width, m.height])),
          ) < 256
        )
          continue;
        measured.push({ name, picture, copy, facts: await analyse(bytes) });
      }
    }
  }, 600_000);

  it('finds every copy of a picture by its face, and no two different photos, even of one sitting', () => {
    const withFace = measured.filter((m) => m.facts.faceCrop && m.facts.descriptor);
    // Every fixture shows a face, and so does every copy of it.
    expect(withFace).toHaveLength(measured.length);
    const copies: Pair[] = [];
    const different: Pair[] = [];
    for (const [i, a] of withFace.entries()) {
      for (const b of withFace.slice(i + 1)) {
        if (a.picture === b.picture) copies.push(measure(a, b));
        else if (!a.copy && !b.copy) different.push(measure(a, b, SAME_PICTURE_MIN_COSINE));
      }
    }
    const samePerson = different.filter((p) => personOf(p.a) === personOf(p.b));
    const overGate = different.filter((p) => p.cosine >= SAME_PICTURE_MIN_COSINE);
    const byCorrelation = (x: Pair, y: Pair) => x.correlation - y.correlation;
    console.info('duplicate faces', {
      copies: copies.length,
      lowestCopies: [...copies].sort(byCorrelation).slice(0, 5),
      lowestCopyCosine: Math.min(...copies.map((p) => p.cosine)),
      differentPairs: different.length,
      samePersonPairs: samePerson.length,
      highestSamePersonCosine: Math.max(...samePerson.map((p) => p.cosine)),
      differentOverCosineGate: overGate.length,
      highestDifferent: [...overGate].sort(byCorrelation).reverse().slice(0, 5),
      thresholds: { correlation: FACE_CROP_MIN_CORRELATION, cosine: SAME_PICTURE_MIN_COSINE },
    });
    // 41 files, 4 of them copies of another: every pair of the 37 pictures, and the 5 files of obama.jpg's picture
    // and the 2 of obama2.jpg's with their own copies.
    expect(different.length).toBeGreaterThan(600);
    expect(copies.length).toBeGreaterThanOrEqual(files.length - 5);
    for (const pair of copies) {
      expect(pair, 'a copy by its face').toMatchObject({ same: true });
      expect(pair.cosine).toBeGreaterThanOrEqual(SAME_PICTURE_MIN_COSINE);
      expect(pair.correlation).toBeGreaterThanOrEqual(FACE_CROP_MIN_CORRELATION);
    }
    for (const pair of different) expect(pair, 'two different photos').toMatchObject({ same: false });
    // The hard side is real: photos of one person that the descriptor alone would call copies.
    expect(
      samePerson.filter((p) => p.cosine >= Math.min(...copies.map((c) => c.cosine))).length,
    ).toBeGreaterThan(0);
  });
});
