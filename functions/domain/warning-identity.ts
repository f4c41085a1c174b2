import { cosine, meanDescriptor } from './likeness';

/**
 * The identity check of warning photos (docs/decisions/023-verified-references.md): a photo whose face is
 * `too_bright`, `too_dark`, `blurry` or `face_too_small` has a descriptor the calibrated thresholds cannot be
 * trusted with (light, blur and a few pixels move it), so it sits out the set's identity check
 * (./photo-checks.ts `differentPersonFlags`). Sitting out entirely let an overexposed photo of someone else become a
 * reference; instead it is compared with the photos the identity check found to agree: rejected as
 * `different_person` when it is clearly someone else (under a looser threshold), and a reference only when it is
 * verified (at or over a stricter one); in between it stays a usable warning photo that is not sent. Pure.
 */

/**
 * Cosines at or over which a warning photo is verified as the customer and may be a reference (round 2 of
 * docs/decisions/023-verified-references.md); -1 verifies every photo that is not clearly someone else (round 1).
 */
export interface ReferenceThresholds {
  /** Against the mean descriptor of the set's agreeing photos. */
  mean: number;
  /** Against each agreeing photo on its own (the closest photo cannot carry a far one). */
  each: number;
}

/**
 * The thresholds of the warning photos' identity check (cosine; a comparison passes at ≥): under `light` or
 * `detail` against the agreeing photos' mean, clearly someone else (-1 never flags: the photo sits out, the rule
 * before round 1); at or over `reference`, verified.
 */
export interface WarningThresholds {
  /** Photos warned `too_bright` or `too_dark` (light shifts the descriptor a little). */
  light: number;
  /** Photos warned `blurry` or `face_too_small` (lost detail shifts it more, so the threshold is looser). */
  detail: number;
  /** When a warning photo that is not clearly someone else is verified, so a reference. */
  reference: ReferenceThresholds;
}

/**
 * Chosen on the evaluation set with degraded photos added (test/bench/identity-warnings.ts; numbers in
 * docs/decisions/023-verified-references.md). `light` and `detail` are looser than DIFFERENT_PERSON_COSINE (0.941)
 * of ./likeness.ts: light, the tightest with at most 1 % of the customer's own light-warned photos flagged;
 * detail, the tightest before the customer's blurred photos are flagged. `reference` (round 2): 0.942 against each
 * agreeing photo, the lowest cosine between two clean photos of one person (docs/decisions/002-identity-model.md,
 * pairs); no warning photo of another person is verified at it on the evaluation set (the closest sits under 0.938),
 * and 168 of the 259 own degraded photos sent before still are.
 */
export const WARNING_THRESHOLDS: WarningThresholds = {
  light: 0.91,
  detail: 0.88,
  reference: { mean: -1, each: 0.942 },
};

/** Codes of each kind (./photo-checks.ts `PhotoCheckCode` values). */
const LIGHT = ['too_bright', 'too_dark'];
const DETAIL = ['blurry', 'face_too_small'];

/**
 * The threshold under which a warning photo is clearly someone else: the loosest of its codes' (a photo both dark
 * and blurry gets the detail one); `undefined` when none of its codes makes it a warning photo of this check.
 */
export function warningThreshold(
  codes: readonly string[],
  t: Omit<WarningThresholds, 'reference'>,
): number | undefined {
  const applicable = [
    ...(codes.some((c) => LIGHT.includes(c)) ? [t.light] : []),
    ...(codes.some((c) => DETAIL.includes(c)) ? [t.detail] : []),
  ];
  return applicable.length ? Math.min(...applicable) : undefined;
}

/**
 * One warning photo to judge: its descriptor (unit length; `undefined` when the face was not measured, so it can be
 * neither called someone else nor verified) and its threshold ({@link warningThreshold}).
 */
export interface WarnedFace {
  descriptor: readonly number[] | undefined;
  threshold: number;
}

/**
 * What the set says of a warning photo's face: `someone_else` (rejected as `different_person`), `verified` (the
 * customer: it may be a reference), or `unverified` (neither: a usable warning photo that is not sent while the set
 * has a verified photo to send instead).
 */
export type WarningIdentity = 'someone_else' | 'verified' | 'unverified';

/**
 * Judges the warning photos of a set against the photos that passed its identity check.
 *
 * @param warned one entry per photo of the set: the warning photo to judge, or `undefined`
 * @param agreeing descriptors of the photos that passed the identity check (unit length); none (no clear photo, or
 *   a `mixed_people` set): nobody stands for the customer, so nothing is clearly someone else and nothing is
 *   verified, unless `reference` verifies anything (-1 and -1, round 1)
 * @param reference the thresholds a photo must reach to be verified
 * @returns one answer per entry of `warned`, in order (`undefined` where the entry is)
 */
export function judgeWarningPhotos(
  warned: readonly (WarnedFace | undefined)[],
  agreeing: readonly (readonly number[])[],
  reference: ReferenceThresholds,
): (WarningIdentity | undefined)[] {
  // A threshold of -1 is met by any cosine, and so by no comparison at all.
  const uncompared: WarningIdentity =
    reference.mean <= -1 && reference.each <= -1 ? 'verified' : 'unverified';
  const mean = agreeing.length > 0 ? meanDescriptor(agreeing) : undefined;
  return warned.map((w) => {
    const face = w?.descriptor;
    if (!w) return undefined;
    if (!face || !mean) return uncompared;
    const toMean = cosine(face, mean);
    if (toMean < w.threshold) return 'someone_else';
    const verified = toMean >= reference.mean && agreeing.every((a) => cosine(face, a) >= reference.each);
    return verified ? 'verified' : 'unverified';
  });
}
