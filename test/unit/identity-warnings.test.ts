import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PhotoFacts } from '../../functions/domain/photo-checks';
import { WARNING_THRESHOLDS } from '../../functions/domain/warning-identity';
import {
  degrade,
  referenceLabel,
  referenceTable,
  warningFigures,
  warningTable,
  type ProbedPhoto,
} from '../bench/identity-warnings';

/**
 * The evaluation of warning photos (test/bench/identity-warnings.ts, docs/decisions/023-verified-references.md): its
 * degraded copies and its arithmetic, on a synthetic image and hand-made facts (no face model runs).
 */

const at = (c: number, k = 1) =>
  Array.from({ length: 8 }, (_, j) => (j === 0 ? c : j === k ? Math.sqrt(1 - c * c) : 0));
const facts = (descriptor: number[] | undefined, luma = 128): PhotoFacts => ({
  width: 1000,
  height: 1000,
  readable: true,
  faces: descriptor ? [{ left: 0.3, top: 0.3, right: 0.6, bottom: 0.65 }] : [],
  ...(descriptor ? { face: { sharpness: 200, luma, highlights: luma > 210 ? 0.5 : 0 }, descriptor } : {}),
});
const photo = (file: string, variant: ProbedPhoto['variant'], f: PhotoFacts): ProbedPhoto => ({
  file,
  person: file[0]!,
  variant,
  facts: f,
});

describe('warningFigures', () => {
  // Person a (axis 0) and person b (cosine 0.8 to a), three clean photos each; one overexposed copy of each person's
  // first photo (a's at 0.95 to a, b's as b), and one dark copy in which no face was found (left out).
  const probe = {
    photos: [
      ...['a1', 'a2', 'a3'].map((f) => photo(f, 'original', facts(at(1)))),
      ...['b1', 'b2', 'b3'].map((f) => photo(f, 'original', facts(at(0.8, 5)))),
      photo('a1', 'overexposed', facts(at(0.95, 1), 235)),
      photo('b1', 'overexposed', facts(at(0.8, 5), 235)),
      photo('a2', 'dark', facts(undefined)),
    ],
  };

  it('counts impostors flagged and used, and genuine photos flagged and used, per set of 1-3 clean photos', () => {
    // Each person: 3 impostor sets (k = 1, 2, 3) and 2 genuine ones (the copy's source left out: 2 others; with
    // k = 1 the third photo is held out for the gate). The customer's own copies (0.95 and 1 to their photos) are
    // verified, so they are references.
    expect(warningFigures(probe, WARNING_THRESHOLDS)).toEqual({
      warning: WARNING_THRESHOLDS,
      impostors: 6,
      impostorsFlagged: 6,
      impostorsUsed: 0,
      impostorsUsedMixed: 0,
      genuine: 4,
      genuineFlagged: 0,
      genuineUsed: 4,
      genuineFewer: 0,
      gatePassed: 2,
      gateCompared: 2,
      byClearPhotos: {
        1: { impostors: 2, impostorsUsed: 0, genuine: 2, genuineUsed: 2 },
        2: { impostors: 2, impostorsUsed: 0, genuine: 2, genuineUsed: 2 },
        3: { impostors: 2, impostorsUsed: 0, genuine: 0, genuineUsed: 0 },
      },
      clean: 18,
      cleanFlagged: 0,
      byDegradation: { overexposed: { impostors: 6, flagged: 6 } },
    });
  });

  it('shows the rule before: nothing flagged, the impostor a reference whenever the set has fewer than 3 others', () => {
    const before = warningFigures(probe, { light: -1, detail: -1, reference: { mean: -1, each: -1 } });
    expect(before).toMatchObject({ impostors: 6, impostorsFlagged: 0, impostorsUsed: 4, genuineFlagged: 0 });
    expect(warningTable([before])).toContain(
      '| none (sit out, before) | 0/6 (0.0 %) | 4 | 0/4 (0.0 %) | 0/18 (0.0 %) | 0/6 |',
    );
    expect(referenceTable([before])).toContain(
      '| none (round 1) | 4/6 | 0 | 2/2 | 2/2 | 4/4 | 2/2 | 2/2 | 0/4 |',
    );
  });

  it("counts the customer's own warning photos kept out of the references by a stricter reference threshold", () => {
    // a's copy is at 0.95 to a's photos, under 0.96: unverified, so a's two genuine sets send one reference fewer.
    const strict = { ...WARNING_THRESHOLDS, reference: { mean: -1, each: 0.96 } };
    const figures = warningFigures(probe, strict);
    expect(figures).toMatchObject({ impostorsUsed: 0, genuine: 4, genuineUsed: 2, genuineFewer: 2 });
    expect(referenceTable([figures])).toContain(
      '| each ≥ 0.960 | 0/6 | 0 | 0/2 | 0/2 | 2/4 | 1/2 | 1/2 | 2/4 | 2/2 (100.0 %) |',
    );
  });

  it('counts an impostor used in a 1 + 1 set as mixed_people, not as a warning photo', () => {
    // A degraded copy of b that kept no warning: with one photo of a, nobody can be called the odd one out.
    const mixed = {
      photos: [
        ...['a1', 'a2'].map((f) => photo(f, 'original', facts(at(1)))),
        photo('b1', 'original', facts(at(0.8, 5))),
        photo('b1', 'small-face', facts(at(0.8, 5))),
      ],
    };
    const figures = warningFigures(mixed, WARNING_THRESHOLDS);
    expect(figures).toMatchObject({
      impostors: 2,
      impostorsFlagged: 1,
      impostorsUsed: 1,
      impostorsUsedMixed: 1,
    });
    expect(figures.byClearPhotos[1]).toEqual({ impostors: 1, impostorsUsed: 1, genuine: 0, genuineUsed: 0 });
  });
});

describe('referenceLabel', () => {
  it('names the thresholds a row uses, and round 1 when none can fail', () => {
    expect(referenceLabel({ mean: -1, each: -1 })).toBe('none (round 1)');
    expect(referenceLabel({ mean: 0.941, each: 0.931 })).toBe('mean ≥ 0.941, each ≥ 0.931');
    expect(referenceLabel({ mean: -1, each: 0.942 })).toBe('each ≥ 0.942');
  });
});

describe('degrade', () => {
  const mean = async (bytes: Buffer) => (await sharp(bytes).stats()).channels.map((c) => c.mean);
  const source = () =>
    sharp({ create: { width: 90, height: 60, channels: 3, background: { r: 120, g: 110, b: 100 } } })
      .jpeg()
      .toBuffer();

  it('makes the same copy every time, of the same size', async () => {
    const bytes = await source();
    for (const how of ['overexposed', 'dark', 'blurred', 'small-face'] as const) {
      const copy = await degrade(bytes, how);
      expect(copy.equals(await degrade(bytes, how))).toBe(true);
      expect(await sharp(copy).metadata()).toMatchObject({ width: 90, height: 60 });
    }
  });

  it('overexposes with a warm cast, and darkens', async () => {
    const bytes = await source();
    const [r, g, b] = await mean(bytes);
    const [r2, g2, b2] = await mean(await degrade(bytes, 'overexposed'));
    expect(g2!).toBeGreaterThan(g! * 1.6);
    expect(r2! - b2!).toBeGreaterThan(3 * (r! - b!));
    const [g3] = (await mean(await degrade(bytes, 'dark'))).slice(1);
    expect(g3!).toBeLessThan(g! * 0.35);
  });
});
