import { cosine, meanDescriptor } from './likeness';

/**
 * The identity check of warning photos (docs/decisions/023-verified-references.md): a photo whose face is
 * `too_bright`, `too_dark`, `blurry` or `face_too_small` has a descriptor the calibrated thresholds cannot be
 * trusted with (light, blur and a few pixels move it), so it sits out the set's identity check
 * (./photo-checks.ts `differentPersonFlags`). Sitting out entirely let an overexposed photo of someone else become a
 * reference; instead it is compared, at a looser threshold, with the photos the identity check found to agree, and
 * rejected as `different_person` only when it is clearly someone else. Pure.
 */

/**
 * Cosines under which a warning photo is clearly someone else, against the mean descriptor of the set's agreeing
 * photos; a comparison passes at ≥, and -1 never flags (the rule before: the photo sits out).
 */
export interface WarningThresholds {
  /** Photos warned `too_bright` or `too_dark` (light shifts the descriptor a little). */
  light: number;
  /** Photos warned `blurry` or `face_too_small` (lost detail shifts it more, so the threshold is looser). */
  detail: number;
}

/**
 * Looser than DIFFERENT_PERSON_COSINE (0.941) of ./likeness.ts, chosen on the evaluation set with degraded photos
 * added (test/bench/identity-warnings.ts; numbers in docs/decisions/023-verified-references.md): light, the tightest
 * with at most 1 % of the customer's own light-warned photos flagged; detail, the tightest before the customer's
 * blurred photos are flagged.
 */
export const WARNING_THRESHOLDS: WarningThresholds = { light: 0.91, detail: 0.88 };

/** Codes of each kind (./photo-checks.ts `PhotoCheckCode` values). */
const LIGHT = ['too_bright', 'too_dark'];
const DETAIL = ['blurry', 'face_too_small'];

/**
 * The threshold a warning photo is judged at: the loosest of its codes' (a photo both dark and blurry gets the
 * detail one); `undefined` when none of its codes makes it a warning photo of this check.
 */
export function warningThreshold(codes: readonly string[], t: WarningThresholds): number | undefined {
  const applicable = [
    ...(codes.some((c) => LIGHT.includes(c)) ? [t.light] : []),
    ...(codes.some((c) => DETAIL.includes(c)) ? [t.detail] : []),
  ];
  return applicable.length ? Math.min(...applicable) : undefined;
}

/** One warning photo to judge: its descriptor (unit length) and its threshold ({@link warningThreshold}). */
export interface WarnedFace {
  descriptor: readonly number[];
  threshold: number;
}

/**
 * Which warning photos are clearly someone else: under their threshold against the agreeing photos' mean.
 *
 * @param warned one entry per photo of the set: the warning photo to judge, or `undefined`
 * @param agreeing descriptors of the photos that passed the identity check (unit length); none (no clear photo, or
 *   a `mixed_people` set): nobody to compare with, and nothing is flagged
 * @returns one answer per entry of `warned`, in order
 */
export function clearlySomeoneElse(
  warned: readonly (WarnedFace | undefined)[],
  agreeing: readonly (readonly number[])[],
): boolean[] {
  if (agreeing.length === 0) return warned.map(() => false);
  const mean = meanDescriptor(agreeing);
  return warned.map((w) => w !== undefined && cosine(w.descriptor, mean) < w.threshold);
}
