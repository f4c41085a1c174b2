import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePhoto } from '../../functions/use-cases/check-photos';
import {
  cosine,
  DEFAULT_LIKENESS_THRESHOLD,
  likenessFromCosine,
  likenessOf,
  meanDescriptor,
} from '../../functions/domain/likeness';
import {
  bestReferences,
  checkPhotoSet,
  differentPersonFlags,
  photoCodes,
  setQuality,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';
import { FIXTURE_PHOTOS } from '../helpers/generation';

/**
 * The photo checks on real photos: the fixtures and images derived from them, through the vision module (models
 * loaded once for this file; each photo analysed once in beforeAll).
 */

const OBAMA = ['obama.jpg', 'obama2.jpg', 'obama3.jpg', 'obama-720p.jpg', 'obama-rotated.jpg'];
const fixture = (name: string) => readFileSync(`${FIXTURE_PHOTOS}${name}`);

/** Images the tests make: each exercises one code. */
async function derivedImages(): Promise<Record<string, Buffer>> {
  const portrait = fixture('obama.jpg'); // 910×1137, face about 250 px wide
  const small = await sharp(portrait).resize(300).toBuffer(); // face ≈ 80 px
  return {
    noFace: await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#5d8a66' } })
      .jpeg()
      .toBuffer(),
    tinyFace: await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#8a8f96' } })
      .composite([{ input: small, left: 850, top: 700 }])
      .jpeg()
      .toBuffer(),
    blurred: await sharp(portrait).blur(12).jpeg().toBuffer(),
    underexposed: await sharp(portrait).linear(0.15, 0).jpeg().toBuffer(),
    // The left third of the face is outside the frame.
    cutOff: await sharp(portrait).extract({ left: 440, top: 0, width: 470, height: 1137 }).jpeg().toBuffer(),
  };
}

describe('photo checks on real photos', () => {
  const facts: Record<string, PhotoFacts> = {};

  beforeAll(async () => {
    for (const name of [...OBAMA, 'biden.jpg']) facts[name] = (await analyzePhoto(fixture(name))).facts;
    for (const [name, bytes] of Object.entries(await derivedImages())) {
      facts[name] = (await analyzePhoto(bytes)).facts;
    }
  }, 120_000);

  it('finds the obama set good, but for obama-720p.jpg and obama-rotated.jpg: the same picture as obama.jpg', () => {
    const checks = checkPhotoSet(OBAMA.map((n) => facts[n]!));
    for (const [i, check] of checks.slice(0, 3).entries()) {
      expect(check.verdict, OBAMA[i]).toBe('good');
      expect(check.score, OBAMA[i]).toBeGreaterThan(50);
    }
    // obama-720p.jpg is obama.jpg letterboxed: seen by the faces (docs/decisions/024-near-duplicates.md).
    for (const copy of checks.slice(3)) {
      expect(copy).toMatchObject({ verdict: 'rejected', score: 0, duplicateOf: 0 });
      expect(copy.reasons.map((r) => r.code)).toEqual(['duplicate']);
    }
    expect(setQuality(checks.slice(0, 3))).toBeGreaterThan(50);
  });

  it('rejects biden.jpg among the obama photos as a different person, and only it', () => {
    const names = [...OBAMA, 'biden.jpg'];
    const checks = checkPhotoSet(names.map((n) => facts[n]!));
    expect(checks.at(-1)).toMatchObject({
      verdict: 'rejected',
      score: 0,
      reasons: [{ code: 'different_person', message: expect.stringMatching(/different person/) as string }],
    });
    // obama-720p.jpg and obama-rotated.jpg are obama.jpg again (duplicates), not another person.
    expect(checks.slice(0, -1).map((c) => c.reasons.map((r) => r.code))).toEqual([
      [],
      [],
      [],
      ['duplicate'],
      ['duplicate'],
    ]);
    // Calibration, printed for the record: each photo's likeness to the mean of the others.
    const descriptors = names.map((n) => facts[n]!.descriptor!);
    const likeness = names.map((n, i) =>
      likenessFromCosine(cosine(descriptors[i]!, meanDescriptor(descriptors.filter((_, j) => j !== i)))),
    );
    console.info(
      'likeness to the rest of the set',
      Object.fromEntries(names.map((n, i) => [n, likeness[i]])),
    );
    expect(Math.max(...likeness.slice(0, -1))).toBeGreaterThan(likeness.at(-1)!);
  });

  it('rejects biden.jpg among two obama photos, and warns both of obama.jpg and biden.jpg alone', () => {
    // Found on 2026-11-26: with each photo against the mean of the others, every mean of this set held biden, and
    // nobody was flagged (docs/decisions/012-small-set-identity.md).
    const checks = checkPhotoSet(['obama.jpg', 'obama2.jpg', 'biden.jpg'].map((n) => facts[n]!));
    expect(checks.map((c) => c.reasons.map((r) => r.code))).toEqual([[], [], ['different_person']]);
    expect(checks.map((c) => c.verdict)).toEqual(['good', 'good', 'rejected']);
    const pair = checkPhotoSet(['obama.jpg', 'biden.jpg'].map((n) => facts[n]!));
    expect(pair.map((c) => c.reasons.map((r) => r.code))).toEqual([['mixed_people'], ['mixed_people']]);
    expect(pair.map((c) => c.verdict)).toEqual(['warning', 'warning']);
    // Two photos of one person agree.
    const same = checkPhotoSet(['obama.jpg', 'obama3.jpg'].map((n) => facts[n]!));
    expect(same.map((c) => c.verdict)).toEqual(['good', 'good']);
  });

  it('gives each derived image its code', () => {
    expect(photoCodes(facts.noFace!)).toEqual(['no_face']);
    expect(photoCodes(facts.tinyFace!)).toContain('face_too_small');
    expect(photoCodes(facts.blurred!)).toContain('blurry');
    expect(photoCodes(facts.underexposed!)).toContain('too_dark');
    expect(photoCodes(facts.underexposed!)).not.toContain('blurry');
    expect(photoCodes(facts.cutOff!)).toContain('face_cut_off');
    expect(photoCodes(facts['obama.jpg']!)).toEqual([]);
  });

  it('warns rather than rejects photos that are usable, and scores them lower', () => {
    // Each on its own: the blurred and underexposed images are obama.jpg edited, so together they are duplicates.
    const checks = ['obama.jpg', 'blurred', 'underexposed', 'noFace'].map(
      (n) => checkPhotoSet([facts[n]!])[0]!,
    );
    expect(checks.map((c) => c.verdict)).toEqual(['good', 'warning', 'warning', 'rejected']);
    expect(checks[0]!.score).toBeGreaterThan(checks[1]!.score);
    expect(checks[0]!.score).toBeGreaterThan(checks[2]!.score);
    expect(checks[3]!.reasons).toEqual([
      { code: 'no_face', message: "We couldn't find a face in this photo." },
    ]);
  });

  it('orders likeness: the same person well above the threshold, another person well under it', () => {
    const references = meanDescriptor(
      ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg'].map((n) => facts[n]!.descriptor!),
    );
    const scores = Object.fromEntries(
      ['obama3.jpg', 'obama-rotated.jpg', 'biden.jpg'].map((n) => [
        n,
        likenessOf(facts[n]!.descriptor!, references),
      ]),
    );
    console.info('likeness to the mean of obama.jpg, obama2.jpg, obama-720p.jpg', scores);
    expect(scores['obama3.jpg']).toBeGreaterThan(DEFAULT_LIKENESS_THRESHOLD + 20);
    expect(scores['obama-rotated.jpg']).toBeGreaterThan(DEFAULT_LIKENESS_THRESHOLD + 20);
    expect(scores['biden.jpg']).toBeLessThan(DEFAULT_LIKENESS_THRESHOLD - 10);
  });

  it('picks the 3 best references by score, never a rejected one', () => {
    const names = ['noFace', 'blurred', 'obama.jpg', 'obama2.jpg', 'underexposed', 'obama3.jpg'];
    const checks = checkPhotoSet(names.map((n) => facts[n]!));
    const best = bestReferences(checks, 3).map((i) => names[i]);
    expect(best).toHaveLength(3);
    expect(best).not.toContain('noFace');
    expect(best).not.toContain('blurred');
    expect(best).not.toContain('underexposed');
  });
});

describe('photo check rules', () => {
  const unit = (i: number, n = 8) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));

  it('needs two faces for the identity check, and never flags a majority', () => {
    // Deliberate change (docs/decisions/012-small-set-identity.md): two or three strangers used to pass unflagged;
    // with no group of more than half the set that agrees, every photo is now warned as mixed_people.
    expect(differentPersonFlags([unit(0), unit(1)])).toEqual(['mixed_people', 'mixed_people']);
    const same = [1, 0.1, 0, 0, 0, 0, 0, 0];
    // Another person's descriptor is far from orthogonal (cosine 0.75-0.92 on the identity evaluation set): 0.85.
    const other = [1, 0, 0, 0, 0, 0.6, 0, 0];
    expect(differentPersonFlags([same, same, same, other])).toEqual([
      undefined,
      undefined,
      undefined,
      'different_person',
    ]);
    expect(differentPersonFlags([unit(0), unit(1), unit(2)])).toEqual([
      'mixed_people',
      'mixed_people',
      'mixed_people',
    ]);
    expect(differentPersonFlags([same, undefined, same, other])).toEqual([
      undefined,
      undefined,
      undefined,
      'different_person',
    ]);
    expect(differentPersonFlags([same, undefined])).toEqual([undefined, undefined]);
    expect(differentPersonFlags([])).toEqual([]);
  });

  describe('small sets (docs/decisions/012-small-set-identity.md)', () => {
    // Descriptors shaped like the identity model's (docs/decisions/002-identity-model.md): the customer's photos
    // 0.978 apart, the other person's two photos 0.992, the two people 0.84-0.85 (unnormalised: cosine normalises).
    const axis = (i: number, weight: number) => Array.from({ length: 24 }, (_, j) => (j === i ? weight : 0));
    const plus = (a: number[], b: number[]) => a.map((v, j) => v + b[j]!);
    const customer = (k: number) => plus(axis(0, 1), axis(1 + k, 0.15));
    const stranger = (k: number) => plus(plus(axis(0, 1), axis(20, 0.6)), axis(21, 0.15 * k));
    const people = (customers: number, strangers: number) => [
      ...Array.from({ length: customers }, (_, k) => customer(k)),
      ...Array.from({ length: strangers }, (_, k) => stranger(k)),
    ];
    const expected = (customers: number, strangers: number) => [
      ...Array.from({ length: customers }, () => undefined),
      ...Array.from({ length: strangers }, () => 'different_person'),
    ];

    it('flags the other person among 2, 3 and 4 photos of the customer (2+1, 3+1, 4+1)', () => {
      for (const n of [2, 3, 4]) expect(differentPersonFlags(people(n, 1)), `${n}+1`).toEqual(expected(n, 1));
    });

    it('flags both photos of another person among 5 of the customer (5+2), and 3+2', () => {
      expect(differentPersonFlags(people(5, 2))).toEqual(expected(5, 2));
      expect(differentPersonFlags(people(3, 2))).toEqual(expected(3, 2));
    });

    it('flags nobody in a set of one person, whatever its size', () => {
      for (const n of [1, 2, 3, 5, 8, 10])
        expect(differentPersonFlags(people(n, 0)), `${n}`).toEqual(expected(n, 0));
    });

    it('flags the other person wherever it stands in the set', () => {
      const set = people(2, 1);
      expect(differentPersonFlags([set[2], set[0], set[1]])).toEqual([
        'different_person',
        undefined,
        undefined,
      ]);
      expect(differentPersonFlags([set[0], set[2], undefined, set[1]])).toEqual([
        undefined,
        'different_person',
        undefined,
        undefined,
      ]);
    });

    it('warns every photo when no group of more than half agrees: 1+1 and 2+2', () => {
      expect(differentPersonFlags(people(1, 1))).toEqual(['mixed_people', 'mixed_people']);
      expect(differentPersonFlags(people(2, 2))).toEqual(Array.from({ length: 4 }, () => 'mixed_people'));
    });

    it('warns rather than rejects mixed_people, and counts each picture once', () => {
      const photo = (descriptor: number[], imageHash: string): PhotoFacts => ({
        width: 1200,
        height: 1200,
        readable: true,
        faces: [{ left: 0.3, top: 0.2, right: 0.6, bottom: 0.6 }],
        face: { sharpness: 200, luma: 130, highlights: 0 },
        descriptor,
        imageHash,
      });
      const [mine, theirs] = [photo(customer(0), '0000000000000000'), photo(stranger(0), 'ffffffffffffffff')];
      const pair = checkPhotoSet([mine, theirs]);
      expect(pair.map((c) => c.verdict)).toEqual(['warning', 'warning']);
      expect(pair[0]!.reasons.map((r) => r.code)).toEqual(['mixed_people']);
      expect(pair[0]!.reasons[0]!.message).toMatch(/different people/);
      // The other person uploaded twice does not outvote the customer: one picture, one vote (then a duplicate).
      const copied = checkPhotoSet([mine, theirs, theirs]);
      expect(copied.map((c) => c.reasons.map((r) => r.code))).toEqual([
        ['mixed_people'],
        ['mixed_people'],
        ['duplicate', 'mixed_people'],
      ]);
    });
  });

  it('rejects several comparable faces but not a small face in the background', () => {
    const base = {
      width: 1200,
      height: 1200,
      readable: true,
      face: { sharpness: 200, luma: 130, highlights: 0 },
    };
    const main = { left: 0.3, top: 0.2, right: 0.6, bottom: 0.6 };
    expect(
      photoCodes({ ...base, faces: [main, { left: 0.65, top: 0.2, right: 0.9, bottom: 0.55 }] }),
    ).toContain('multiple_faces');
    expect(
      photoCodes({ ...base, faces: [main, { left: 0.8, top: 0.1, right: 0.85, bottom: 0.16 }] }),
    ).toEqual([]);
    expect(photoCodes({ ...base, width: 400, height: 300, faces: [main] })).toEqual(['low_resolution']);
    expect(photoCodes({ width: 0, height: 0, readable: false, faces: [] })).toEqual(['unreadable']);
  });
});
