import { describe, expect, it } from 'vitest';
import {
  bestReferences,
  checkPhotoSet,
  IDENTITY_THRESHOLDS,
  PHOTO_CHECK_MESSAGES,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';
import { cosine } from '../../functions/domain/likeness';
import {
  judgeWarningPhotos,
  WARNING_THRESHOLDS,
  warningThreshold,
} from '../../functions/domain/warning-identity';

/**
 * Warning photos (too bright, too dark, blurry, a small face) sit out the set's identity check but are still judged
 * against the photos that agree (docs/decisions/023-verified-references.md): rejected under a looser threshold, a
 * reference only at or over a stricter one.
 */

const DIMENSIONS = 8;
/** A descriptor at cosine `c` to the customer's (axis 0), leaning towards axis `k`. */
const at = (c: number, k = 1) =>
  Array.from({ length: DIMENSIONS }, (_, j) => (j === 0 ? c : j === k ? Math.sqrt(1 - c * c) : 0));
const customer = at(1);

const facts = (descriptor: number[], face: Partial<NonNullable<PhotoFacts['face']>> = {}): PhotoFacts => ({
  width: 1000,
  height: 1000,
  readable: true,
  faces: [{ left: 0.3, top: 0.3, right: 0.6, bottom: 0.65 }],
  face: { sharpness: 200, luma: 128, highlights: 0, ...face },
  descriptor,
});
const bright = { luma: 235, highlights: 0.5 };
const dark = { luma: 40 };
const blurry = { sharpness: 20 };
/** Before round 1: warning photos sit out, and any of them may be a reference. */
const BEFORE = {
  ...IDENTITY_THRESHOLDS,
  warning: { light: -1, detail: -1, reference: { mean: -1, each: -1 } },
};
/** Round 1: rejected when clearly someone else, and otherwise a reference. */
const ROUND_1 = {
  ...IDENTITY_THRESHOLDS,
  warning: { ...WARNING_THRESHOLDS, reference: { mean: -1, each: -1 } },
};

const codes = (set: PhotoFacts[], thresholds = IDENTITY_THRESHOLDS) =>
  checkPhotoSet(set, thresholds).map((c) => c.reasons.map((r) => r.code));

describe('warning photos in the identity check', () => {
  it('rejects an overexposed photo of someone else and never chooses it as a reference', () => {
    const set = [facts(customer), facts(customer), facts(at(0.85), bright)];
    const checks = checkPhotoSet(set);
    expect(checks[2]).toMatchObject({
      verdict: 'rejected',
      score: 0,
      reasons: [
        { code: 'different_person', message: PHOTO_CHECK_MESSAGES.different_person },
        { code: 'too_bright', message: PHOTO_CHECK_MESSAGES.too_bright },
      ],
    });
    expect(bestReferences(checks, 3)).toEqual([0, 1]);
    // The rule before: the photo sat out, stayed a warning photo and became the third reference.
    const before = checkPhotoSet(set, BEFORE);
    expect(before[2]!.verdict).toBe('warning');
    expect(bestReferences(before, 3)).toEqual([0, 1, 2]);
  });

  it('keeps a warning photo under the main threshold but not clearly someone else usable, though not a reference', () => {
    // 0.93 is under DIFFERENT_PERSON_COSINE (0.941): a clear photo there would be flagged.
    expect(0.93).toBeLessThan(IDENTITY_THRESHOLDS.flag);
    const checks = checkPhotoSet([facts(customer), facts(customer), facts(at(0.93), bright)]);
    expect(checks[2]!.verdict).toBe('warning');
    expect(checks[2]!.reasons.map((r) => r.code)).toEqual(['too_bright']);
    expect(checks[2]!.unverified).toBe(true);
    expect(bestReferences(checks, 3)).toEqual([0, 1]);
    // Round 1 sent it as the third reference.
    expect(
      bestReferences(checkPhotoSet([facts(customer), facts(customer), facts(at(0.93), bright)], ROUND_1), 3),
    ).toEqual([0, 1, 2]);
  });

  it('judges light at the light threshold and lost detail at the looser detail one', () => {
    const between = (WARNING_THRESHOLDS.light + WARNING_THRESHOLDS.detail) / 2;
    const set = [
      facts(customer),
      facts(customer),
      facts(customer),
      facts(at(between, 1), dark),
      facts(at(between, 2), blurry),
      facts(at(between, 3), { ...dark, ...blurry }),
    ];
    expect(codes(set).slice(3)).toEqual([
      ['different_person', 'too_dark'],
      ['blurry'],
      ['blurry', 'too_dark'],
    ]);
    expect(codes(set, BEFORE).slice(3)).toEqual([['too_dark'], ['blurry'], ['blurry', 'too_dark']]);
  });

  it('compares with a single clear photo, and with nothing when no clear photos agree', () => {
    expect(codes([facts(customer), facts(at(0.8), bright)])).toEqual([
      [],
      ['different_person', 'too_bright'],
    ]);
    // Only warning photos: nobody to compare with.
    expect(codes([facts(customer, blurry), facts(at(0.8), bright)])).toEqual([['blurry'], ['too_bright']]);
    // Two clear photos of two people: nobody can be called the customer, so the warning photo is not judged.
    expect(codes([facts(customer), facts(at(0.8, 2)), facts(at(0.8, 3), bright)])).toEqual([
      ['mixed_people'],
      ['mixed_people'],
      ['too_bright'],
    ]);
  });

  it('compares with the photos that agree, not with one flagged as someone else', () => {
    const other = at(0.8, 4);
    const set = [facts(customer), facts(customer), facts(customer), facts(other), facts(other, bright)];
    expect(codes(set)).toEqual([[], [], [], ['different_person'], ['different_person', 'too_bright']]);
  });
});

describe('warningThreshold', () => {
  it('takes the loosest threshold of the codes, and none without a warning code of this check', () => {
    const t = { light: 0.9, detail: 0.8 };
    expect(warningThreshold(['too_bright', 'low_resolution'], t)).toBe(0.9);
    expect(warningThreshold(['too_dark'], t)).toBe(0.9);
    expect(warningThreshold(['face_too_small'], t)).toBe(0.8);
    expect(warningThreshold(['too_dark', 'blurry'], t)).toBe(0.8);
    expect(warningThreshold(['face_cut_off', 'low_resolution'], t)).toBeUndefined();
    expect(warningThreshold([], t)).toBeUndefined();
  });
});

describe('warning photos as references (decision 023, round 2)', () => {
  const between = (IDENTITY_THRESHOLDS.flag + WARNING_THRESHOLDS.light) / 2;

  it('does not send a warning photo of someone else that is between the looser and the main threshold, with 1 clear photo', () => {
    expect(between).toBeGreaterThanOrEqual(WARNING_THRESHOLDS.light);
    expect(between).toBeLessThan(IDENTITY_THRESHOLDS.flag);
    const set = [facts(customer), facts(at(between), bright)];
    const checks = checkPhotoSet(set);
    expect(checks[1]).toMatchObject({ verdict: 'warning', unverified: true });
    expect(checks[1]!.reasons.map((r) => r.code)).toEqual(['too_bright']);
    expect(bestReferences(checks, 3)).toEqual([0]);
    // Round 1: not clearly someone else, so it became the second reference.
    expect(bestReferences(checkPhotoSet(set, ROUND_1), 3)).toEqual([0, 1]);
  });

  it("sends the customer's own warning photo when it reaches the main threshold against each clear photo", () => {
    const own = at(0.96);
    expect(cosine(own, customer)).toBeGreaterThanOrEqual(WARNING_THRESHOLDS.reference.each);
    for (const warning of [bright, dark, blurry]) {
      const checks = checkPhotoSet([facts(customer), facts(own, warning)]);
      expect(checks[1]!.verdict).toBe('warning');
      expect(checks[1]!.unverified).toBeUndefined();
      expect(bestReferences(checks, 3)).toEqual([0, 1]);
    }
  });

  it('verifies against each clear photo, not only their mean', () => {
    // Two clear photos that agree (0.94, over the pair threshold) and a warning photo between them: close to their
    // mean, but under the reference threshold against the first.
    const second = at(0.94, 2);
    const warned = [0.9, 0.0, 0.43, 0, 0, 0, 0, 0];
    const unit = warned.map((v) => v / Math.hypot(...warned));
    expect(cosine(second, customer)).toBeGreaterThanOrEqual(IDENTITY_THRESHOLDS.pair);
    expect(cosine(unit, customer)).toBeLessThan(WARNING_THRESHOLDS.reference.each);
    expect(cosine(unit, second)).toBeGreaterThanOrEqual(WARNING_THRESHOLDS.reference.each);
    const checks = checkPhotoSet([facts(customer), facts(second), facts(unit, dark)]);
    expect(checks.map((c) => c.verdict)).toEqual(['good', 'good', 'warning']);
    expect(checks[2]!.unverified).toBe(true);
    expect(bestReferences(checks, 3)).toEqual([0, 1]);
  });

  it('does not send a warning photo of a mixed_people set, where nobody stands for the customer', () => {
    const set = [facts(customer), facts(at(0.8, 2)), facts(at(0.97), bright)];
    const checks = checkPhotoSet(set);
    expect(checks.map((c) => c.reasons.map((r) => r.code))).toEqual([
      ['mixed_people'],
      ['mixed_people'],
      ['too_bright'],
    ]);
    expect(bestReferences(checks, 3)).toEqual([0, 1]);
    expect(bestReferences(checkPhotoSet(set, ROUND_1), 3)).toHaveLength(3);
  });

  it('sends warning photos when the set has nothing else: no clear photo to verify them against', () => {
    const checks = checkPhotoSet([facts(customer, dark), facts(at(0.97), blurry), facts(at(0.3), bright)]);
    expect(checks.map((c) => c.unverified)).toEqual([true, true, true]);
    expect(bestReferences(checks, 3).sort()).toEqual([0, 1, 2]);
    expect(bestReferences(checks, 2)).toHaveLength(2);
  });

  it('never sends a rejected photo, even when the unverified ones are all that is left', () => {
    const checks = checkPhotoSet([facts(customer), facts(customer), facts(at(0.8, 3), bright)]);
    expect(checks[2]!.verdict).toBe('rejected');
    expect(bestReferences(checks, 3)).toEqual([0, 1]);
  });
});

describe('judgeWarningPhotos', () => {
  const reference = { mean: -1, each: 0.95 };
  const warned = (c: number, k = 1) => ({ descriptor: at(c, k), threshold: 0.9 });

  it('calls a photo someone else under its threshold, verified at the reference one, unverified between', () => {
    expect(
      judgeWarningPhotos(
        [warned(0.85), warned(0.93), warned(0.96), undefined],
        [customer, customer],
        reference,
      ),
    ).toEqual(['someone_else', 'unverified', 'verified', undefined]);
  });

  it('needs the mean threshold too when one is given', () => {
    expect(judgeWarningPhotos([warned(0.96)], [customer], { mean: 0.97, each: -1 })).toEqual(['unverified']);
    expect(judgeWarningPhotos([warned(0.96)], [customer], { mean: 0.95, each: -1 })).toEqual(['verified']);
  });

  it('verifies nothing and flags nothing with no photo to compare with, or no descriptor', () => {
    expect(judgeWarningPhotos([warned(0.5), warned(0.99)], [], reference)).toEqual([
      'unverified',
      'unverified',
    ]);
    expect(judgeWarningPhotos([{ descriptor: undefined, threshold: 0.9 }], [customer], reference)).toEqual([
      'unverified',
    ]);
  });

  it('verifies everything not clearly someone else with the round-1 reference thresholds (-1)', () => {
    const any = { mean: -1, each: -1 };
    expect(judgeWarningPhotos([warned(0.91), warned(0.5)], [customer], any)).toEqual([
      'verified',
      'someone_else',
    ]);
    expect(judgeWarningPhotos([warned(0.5), { descriptor: undefined, threshold: 0.9 }], [], any)).toEqual([
      'verified',
      'verified',
    ]);
  });
});
