import { duplicatesOf } from './duplicate-photos';
import {
  cosine,
  DIFFERENT_PERSON_COSINE,
  likenessFromCosine,
  meanDescriptor,
  SAME_PERSON_PAIR_COSINE,
} from './likeness';
import {
  judgeWarningPhotos,
  WARNING_THRESHOLDS,
  warningThreshold,
  type WarningThresholds,
} from './warning-identity';

/**
 * Photo checks (docs/architecture.md §8 (faces); docs/product-spec.md, step 1 of the generator): what the
 * vision module's measurements of one photo mean for a headshot, in codes, plain sentences, a verdict and a score.
 * Pure: the API (`POST /api/photo-checks`), PrepareReferences and the tests share these rules.
 *
 * Thresholds were set on the fixtures (test/fixtures/photos) and on images the tests derive from them:
 * - face_too_small: face narrower than 10% of the photo's short side, or than 64 px (an ordinary selfie: 20-50%);
 * - face_cut_off: the face's landmarks reach more than 4% of its size past an edge;
 * - blurry: contrast-normalised Laplacian variance of the face under 50 (fixtures 110-640; a 12 px blur 26);
 * - too_dark: mean face luma under 60 of 255 (fixtures 96-143); too_bright: over 210, or 8% of it clipped;
 * - low_resolution: short side under 512 px;
 * - different_person: not like the set's medoid (cosine under SAME_PERSON_PAIR_COSINE), and under the calibrated
 *   DIFFERENT_PERSON_COSINE of ./likeness.ts to the mean of the photos that are, while those are more than half the
 *   set ({@link differentPersonFlags}, docs/decisions/012-small-set-identity.md; both thresholds at most 1 % false
 *   accepts at the fewest false rejects, measured on 9 people: docs/decisions/002-identity-model.md), likeness
 *   {@link DIFFERENT_PERSON_LIKENESS} on the 0-100 scale;
 * - mixed_people: the set disagrees and no group of more than half of it agrees (two photos of two people, two and
 *   two): nobody can be called the odd one out, so every photo of it is warned, and the set starts no generation
 *   ({@link mixesPeople});
 * - duplicate: the same picture by ./duplicate-photos.ts: perceptual hashes at most DUPLICATE_MAX_DISTANCE bits
 *   apart (copies 0-1, different photos 18 or more), or descriptors and aligned face crops alike (letterboxed,
 *   cropped, grainy copies; docs/decisions/024-near-duplicates.md).
 */

/** Every reason a check can give. */
export const PHOTO_CHECK_CODES = [
  'unreadable',
  'no_face',
  'multiple_faces',
  'different_person',
  'mixed_people',
  'duplicate',
  'face_too_small',
  'face_cut_off',
  'blurry',
  'too_dark',
  'too_bright',
  'low_resolution',
] as const;
export type PhotoCheckCode = (typeof PHOTO_CHECK_CODES)[number];

/**
 * Codes under which a face's descriptor is unreliable (blur, a few pixels, bad light change it): such photos sit
 * out the set's identity check instead of being called someone else for a problem they are already warned about,
 * and are judged by the WARNING_THRESHOLDS of ./warning-identity.ts (docs/decisions/023-verified-references.md):
 * rejected when clearly someone else, a reference only when verified.
 */
const UNRELIABLE_IDENTITY: readonly PhotoCheckCode[] = ['face_too_small', 'blurry', 'too_dark', 'too_bright'];

/** A photo's verdict: `rejected` photos are never used; `warning` photos are used after better ones. */
export type PhotoVerdict = 'good' | 'warning' | 'rejected';

/** Codes that reject a photo (no usable single face of the customer); every other code warns. */
export const REJECTING_CODES: readonly PhotoCheckCode[] = [
  'unreadable',
  'no_face',
  'multiple_faces',
  'different_person',
  'duplicate',
];

/** The sentence shown to the customer for each code. */
export const PHOTO_CHECK_MESSAGES: Record<PhotoCheckCode, string> = {
  unreadable: "We couldn't read this photo. Please use a JPG, PNG, WebP or HEIC image.",
  no_face: "We couldn't find a face in this photo.",
  multiple_faces: 'This photo shows more than one person. Please use a photo of just you.',
  different_person: "This looks like a different person from your other photos, so we won't use it.",
  mixed_people:
    "Your photos seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.",
  duplicate:
    "This looks like the same picture as another of your photos, so we'll only use it once. Please use a different photo.",
  face_too_small: 'Your face is small in this photo. A closer photo gives better headshots.',
  face_cut_off: 'Your face is cut off at the edge of this photo.',
  blurry: 'This photo looks blurry. A sharp photo gives better headshots.',
  too_dark: 'This photo is too dark. A photo in good light gives better headshots.',
  too_bright: 'This photo is overexposed. A photo without harsh light gives better headshots.',
  low_resolution: 'This photo is small (under 512 pixels on its short side).',
};

export const THRESHOLDS = {
  /** Face width as a share of the photo's short side. */
  minFaceShare: 0.1,
  /** Face width in the photo's own pixels. */
  minFacePixels: 64,
  /** How far (share of the face's size) landmarks may reach past an edge. */
  cutOffTolerance: 0.04,
  minSharpness: 50,
  minLuma: 60,
  maxLuma: 210,
  maxHighlights: 0.08,
  minShortSide: 512,
  /** A second face at least this share of the largest face's area means no single dominant face. */
  rivalFaceArea: 0.35,
} as const;

/**
 * The `duplicate` message naming the photo it copies, numbered from 1 in the order the customer sees them: "This
 * looks like the same picture as photo 2, so we'll only use it once. Please use a different photo."
 */
export function duplicateMessage(photoNumber: number): string {
  return `This looks like the same picture as photo ${photoNumber}, so we'll only use it once. Please use a different photo.`;
}

/** Below this likeness to the rest of the set, a photo shows someone else (0-100; the flag compares the cosine). */
export const DIFFERENT_PERSON_LIKENESS = likenessFromCosine(DIFFERENT_PERSON_COSINE);
/**
 * Photos with a clear face needed for the identity check. Two are compared with each other: they agree, or both
 * are `mixed_people` (with two, who is the odd one?); a photo can be called a different person from three on.
 */
export const MIN_SET_FOR_IDENTITY = 2;

/** What the vision module measured on one photo (sizes in the photo's own pixels, EXIF-upright). */
export interface PhotoFacts {
  width: number;
  height: number;
  /** False when the bytes are not a photo we can decode. */
  readable: boolean;
  /** Faces found, the largest first: each box as shares of the photo's width and height (may pass 0..1). */
  faces: { left: number; top: number; right: number; bottom: number }[];
  /** Measurements of the largest face (absent without a face). */
  face?: { sharpness: number; luma: number; highlights: number };
  /** The largest face's descriptor (unit length). */
  descriptor?: number[];
  /**
   * The upright picture's 64-bit perceptual hash, 16 hex digits (functions/adapters/vision/image-hash.ts); absent
   * when unreadable, and on checks stored before it was kept.
   */
  imageHash?: string;
  /**
   * The largest face's aligned crop, 32 × 32 grey bytes as base64 (functions/adapters/vision/face-crop.ts): the
   * duplicate check's way to see a letterboxed or cropped copy. Absent without a face, and on older checks.
   */
  faceCrop?: string;
}

/** One reason as the API returns it. */
export interface PhotoCheckReason {
  code: PhotoCheckCode;
  message: string;
}

/** A photo's check as the API returns it. */
export interface PhotoCheck {
  verdict: PhotoVerdict;
  /** 0-100: how good a reference the photo is (0 when rejected). */
  score: number;
  reasons: PhotoCheckReason[];
  /** With `duplicate`: the index (in the set checked) of the photo this one is the same picture as. */
  duplicateOf?: number;
  /**
   * A warning photo whose face sat out the identity check and was not verified against the photos that agree
   * (./warning-identity.ts): usable and shown with its warning, but a reference only when the set has no other
   * photo to send ({@link bestReferences}; docs/decisions/023-verified-references.md, round 2). Not part of the
   * API's answer.
   */
  unverified?: true;
}

const area = (f: PhotoFacts['faces'][number]) => (f.right - f.left) * (f.bottom - f.top);

/** The codes that follow from one photo on its own (the set's identity check is {@link differentPersonFlags}). */
export function photoCodes(facts: PhotoFacts): PhotoCheckCode[] {
  if (!facts.readable) return ['unreadable'];
  const [main, second] = facts.faces;
  if (!main) return ['no_face'];
  const codes: PhotoCheckCode[] = [];
  if (second && area(second) >= THRESHOLDS.rivalFaceArea * area(main)) codes.push('multiple_faces');
  const widthPx = (main.right - main.left) * facts.width;
  const heightPx = (main.bottom - main.top) * facts.height;
  const shortSide = Math.min(facts.width, facts.height);
  const tooSmall = widthPx < THRESHOLDS.minFaceShare * shortSide || widthPx < THRESHOLDS.minFacePixels;
  if (tooSmall) codes.push('face_too_small');
  const tolX = (THRESHOLDS.cutOffTolerance * widthPx) / facts.width;
  const tolY = (THRESHOLDS.cutOffTolerance * heightPx) / facts.height;
  if (main.left < -tolX || main.top < -tolY || main.right > 1 + tolX || main.bottom > 1 + tolY)
    codes.push('face_cut_off');
  const face = facts.face;
  // A tiny face's sharpness cannot be measured fairly: it is already reported as too small.
  if (face && !tooSmall && face.sharpness < THRESHOLDS.minSharpness) codes.push('blurry');
  if (face && face.luma < THRESHOLDS.minLuma) codes.push('too_dark');
  if (face && (face.luma > THRESHOLDS.maxLuma || face.highlights > THRESHOLDS.maxHighlights))
    codes.push('too_bright');
  if (shortSide < THRESHOLDS.minShortSide) codes.push('low_resolution');
  return codes;
}

/** The identity check's outcome for one photo: `undefined` when it agrees with the set (or sat out). */
export type IdentityFlag = 'different_person' | 'mixed_people' | undefined;

/** The identity check's two thresholds (cosine; a comparison passes at ≥). */
export interface IdentityThresholds {
  /** One photo against the mean of two or more photos: DIFFERENT_PERSON_COSINE. */
  flag: number;
  /** One photo against one other: SAME_PERSON_PAIR_COSINE. */
  pair: number;
}

/**
 * The calibrated thresholds of ./likeness.ts (docs/decisions/002-identity-model.md), and `warning`, the looser ones
 * warning photos are judged at (./warning-identity.ts, docs/decisions/023-verified-references.md).
 */
export const IDENTITY_THRESHOLDS: IdentityThresholds & { warning: WarningThresholds } = {
  flag: DIFFERENT_PERSON_COSINE,
  pair: SAME_PERSON_PAIR_COSINE,
  warning: WARNING_THRESHOLDS,
};

/**
 * Which photos of a set show someone other than the customer, anchored on the medoid
 * (docs/decisions/012-small-set-identity.md):
 * 1. the medoid, the photo with the highest summed cosine to the others, stands for the customer;
 * 2. with it, the photos at or over `pair` (SAME_PERSON_PAIR_COSINE) against it form the anchor group;
 * 3. a photo outside that group still agrees when it reaches `flag` (DIFFERENT_PERSON_COSINE) against the group's
 *    mean descriptor;
 * 4. if the photos that agree are more than half of the set, every other one is `different_person`; if they are
 *    half or fewer (two photos of two people, two and two, three strangers), there is no majority to call anyone
 *    the odd one out, and every photo is `mixed_people` (a warning: we cannot tell which photos are the customer).
 *
 * Why not each photo against the mean of the others (the rule before): with 2 or 3 photos of the customer, every
 * such mean holds the other person too and nothing was flagged (2 + 1: 76 % of the other person missed), and a
 * mean of two people can pass two photos of each. Thresholds and their calibration: docs/decisions/002-identity-model.md.
 *
 * Photos without a descriptor (no clear face, or one measured badly) sit out and are never flagged. Pure.
 *
 * @param descriptors unit-length face descriptors of ./likeness.ts's model, or `undefined`
 * @param thresholds the calibrated ones unless a measurement passes others (test/bench/identity-small-sets.ts)
 * @returns one flag per input, in order
 */
export function differentPersonFlags(
  descriptors: readonly (readonly number[] | undefined)[],
  thresholds: IdentityThresholds = IDENTITY_THRESHOLDS,
): IdentityFlag[] {
  const present = descriptors.flatMap((d, i) => (d ? [{ d, i }] : []));
  const flags: IdentityFlag[] = descriptors.map(() => undefined);
  if (present.length < MIN_SET_FOR_IDENTITY) return flags;
  const sums = present.map((a) => present.reduce((sum, b) => sum + cosine(a.d, b.d), 0));
  const medoid = present[sums.indexOf(Math.max(...sums))]!;
  const anchor = present.filter((p) => p === medoid || cosine(p.d, medoid.d) >= thresholds.pair);
  const mean = meanDescriptor(anchor.map((p) => p.d));
  const others = present.filter((p) => !anchor.includes(p) && cosine(p.d, mean) < thresholds.flag);
  if (others.length === 0) return flags;
  const majority = (present.length - others.length) * 2 > present.length;
  for (const p of majority ? others : present) flags[p.i] = majority ? 'different_person' : 'mixed_people';
  return flags;
}

const clamp = (v: number, lo = 0, hi = 1) => Math.max(lo, Math.min(hi, v));

/**
 * A photo's score, 0-100: 0 when rejected; otherwise face size, sharpness, exposure and resolution, each a factor,
 * and each warning costs a further 15%.
 */
export function photoScore(facts: PhotoFacts, codes: readonly PhotoCheckCode[]): number {
  if (codes.some((c) => REJECTING_CODES.includes(c))) return 0;
  const main = facts.faces[0]!;
  const share = ((main.right - main.left) * facts.width) / Math.min(facts.width, facts.height);
  const size = 0.4 + 0.6 * clamp((share - 0.05) / 0.15);
  const face = facts.face ?? { sharpness: 0, luma: 128, highlights: 0 };
  const sharp = 0.4 + 0.6 * clamp(face.sharpness / 150);
  const exposure = 1 - 0.6 * clamp((Math.abs(face.luma - 128) - 35) / 80);
  const shortSide = Math.min(facts.width, facts.height);
  const resolution = shortSide >= 1024 ? 1 : shortSide >= 512 ? 0.9 : 0.7;
  const warnings = codes.length;
  return Math.round(100 * size * sharp * exposure * resolution * 0.85 ** warnings);
}

/** The verdict of a list of codes. */
export function verdictOf(codes: readonly PhotoCheckCode[]): PhotoVerdict {
  if (codes.some((c) => REJECTING_CODES.includes(c))) return 'rejected';
  return codes.length > 0 ? 'warning' : 'good';
}

/**
 * Checks a set of photos: each photo's own codes, the set's identity check ({@link differentPersonFlags}, one vote
 * per picture), then its duplicates. Of two or more
 * uploads of the same picture (./duplicate-photos.ts) the best-scoring one is judged as usual (the first on a tie)
 * and every other copy is rejected as `duplicate` with `duplicateOf` naming it, so it is used once and the
 * customer may go on with the other photos. Photos already rejected take no part. A warning photo that sat out the
 * identity check (blur, light, a small face) is judged against the photos that agree (./warning-identity.ts,
 * docs/decisions/023-verified-references.md): rejected as `different_person` when clearly someone else (under its
 * `warning` threshold against their mean), and marked `unverified` unless it reaches the `reference` thresholds,
 * so that only a verified face becomes a reference ({@link bestReferences}).
 *
 * @param thresholds the calibrated ones unless a measurement passes others (test/bench/identity-warnings.ts)
 * @returns one check per photo, in the order given
 */
export function checkPhotoSet(
  facts: readonly PhotoFacts[],
  thresholds: IdentityThresholds & { warning: WarningThresholds } = IDENTITY_THRESHOLDS,
): PhotoCheck[] {
  const own = facts.map(photoCodes);
  const rejected = own.map((codes) => codes.some((c) => REJECTING_CODES.includes(c)));
  // Only photos with one clear, well-measured face take part in the identity check, each picture once: copies of
  // one photo (./duplicate-photos.ts) would otherwise outvote the rest, and share their original's outcome.
  const candidates = facts.map((f, i) =>
    rejected[i] || own[i]!.some((c) => UNRELIABLE_IDENTITY.includes(c)) ? undefined : f.descriptor,
  );
  const sameAs = duplicatesOf(
    facts.map((f, i) => (candidates[i] ? f : undefined)),
    facts.map(() => 0),
  );
  const voters = candidates.map((d, i) => (sameAs[i] === undefined ? d : undefined));
  const flags = differentPersonFlags(voters, thresholds);
  const agreeing = flags.includes('mixed_people')
    ? []
    : voters.flatMap((d, i) => (d && !flags[i] ? [d] : []));
  const warned = judgeWarningPhotos(
    facts.map((f, i) => {
      const threshold = warningThreshold(own[i]!, thresholds.warning);
      return rejected[i] || threshold === undefined ? undefined : { descriptor: f.descriptor, threshold };
    }),
    agreeing,
    thresholds.warning.reference,
  );
  const checks = facts.map((f, i): PhotoCheck => {
    const flag = flags[sameAs[i] ?? i] ?? (warned[i] === 'someone_else' ? 'different_person' : undefined);
    const codes = flag ? [flag, ...own[i]!] : own[i]!;
    return {
      verdict: verdictOf(codes),
      score: photoScore(f, codes),
      reasons: codes.map((code) => ({ code, message: PHOTO_CHECK_MESSAGES[code] })),
      ...(warned[i] === 'unverified' && !flag ? { unverified: true as const } : {}),
    };
  });
  const copies = duplicatesOf(
    facts.map((f, i) => (checks[i]!.verdict === 'rejected' ? undefined : f)),
    checks.map((c) => c.score),
  );
  return checks.map((check, i) => {
    const original = copies[i];
    if (original === undefined) return check;
    return {
      verdict: 'rejected',
      score: 0,
      reasons: [{ code: 'duplicate', message: duplicateMessage(original + 1) }, ...check.reasons],
      duplicateOf: original,
    };
  });
}

/**
 * Whether a checked set mixes people: a photo of it is `mixed_people` ({@link differentPersonFlags}: the set
 * disagrees and no group of more than half of it agrees). Nobody can tell which photos are the customer, so no
 * choice of references is right: such a set starts no generation and is never sent to the image provider; the
 * customer removes the photos that aren't them (docs/decisions/012-small-set-identity.md, amended by issue 33).
 */
export function mixesPeople(checks: readonly Pick<PhotoCheck, 'reasons'>[]): boolean {
  return checks.some((check) => check.reasons.some((reason) => reason.code === 'mixed_people'));
}

/** The set's quality, 0-100: the mean score of every photo checked (rejected photos count as 0). */
export function setQuality(checks: readonly Pick<PhotoCheck, 'score'>[]): number {
  if (checks.length === 0) return 0;
  return Math.round(checks.reduce((sum, c) => sum + c.score, 0) / checks.length);
}

/**
 * The best references: photos that are not rejected, highest score first (ties keep the customer's order), at
 * most `count` (docs/architecture.md §8: the 3 best, not the spec's first 3). A photo marked `unverified` (a
 * warning photo whose face was not verified as the customer's) is left out, so a set may send fewer than `count`
 * (the image edit takes 1 to 16 images: docs/decisions/001-openai-image-model.md), unless the set has no other
 * photo to send, as when every photo has a warning: nothing stands for the customer there, and leaving them all
 * out would fail a generation the customer was only warned about (docs/decisions/023-verified-references.md).
 *
 * @returns indexes into `checks`, best first; empty only when every photo is rejected
 */
export function bestReferences(checks: readonly PhotoCheck[], count: number): number[] {
  const usable = checks.map((c, i) => ({ c, i })).filter(({ c }) => c.verdict !== 'rejected');
  const verified = usable.filter(({ c }) => !c.unverified);
  return (verified.length > 0 ? verified : usable)
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .slice(0, count)
    .map(({ i }) => i);
}
