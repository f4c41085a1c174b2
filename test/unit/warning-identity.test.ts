import { describe, expect, it } from 'vitest';
import {
  bestReferences,
  checkPhotoSet,
  IDENTITY_THRESHOLDS,
  PHOTO_CHECK_MESSAGES,
  type PhotoFacts,
} from '../../functions/domain/photo-checks';
import { WARNING_THRESHOLDS, warningThreshold } from '../../functions/domain/warning-identity';

/**
 * Warning photos (too bright, too dark, blurry, a small face) sit out the set's identity check but are still judged
 * at a looser threshold against the photos that agree (docs/decisions/023-verified-references.md).
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
const BEFORE = { ...IDENTITY_THRESHOLDS, warning: { light: -1, detail: -1 } };

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

  it("keeps the customer's own warning photo usable when it is under the main threshold but not clearly someone else", () => {
    // 0.93 is under DIFFERENT_PERSON_COSINE (0.941): a clear photo there would be flagged.
    expect(0.93).toBeLessThan(IDENTITY_THRESHOLDS.flag);
    const checks = checkPhotoSet([facts(customer), facts(customer), facts(at(0.93), bright)]);
    expect(checks[2]!.verdict).toBe('warning');
    expect(checks[2]!.reasons.map((r) => r.code)).toEqual(['too_bright']);
    expect(bestReferences(checks, 3)).toEqual([0, 1, 2]);
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
