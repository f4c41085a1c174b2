/**
 * The identity evaluation's arithmetic (docs/decisions/002-identity-model.md): which pairs of a labelled set are
 * genuine (same person) and which impostor (different people), the similarity distributions, the equal-error rate
 * and the threshold that keeps false accepts at or under a target with the fewest false rejects. Pure, so the bench
 * (test/bench/identity.ts) and its unit test share it.
 *
 * Terms (ISO/IEC 19795-1, biometric performance testing): a false accept is an impostor comparison scoring at or
 * over the threshold; a false reject is a genuine comparison scoring under it. FAR and FRR are their shares.
 */
import { cosine, meanDescriptor } from '../../functions/domain/likeness';
import { percentile } from './stats';

/** One photo's descriptor with its person's label. */
export interface LabelledDescriptor {
  file: string;
  person: string;
  descriptor: readonly number[];
}

/** One comparison's similarity, genuine or impostor. */
export interface Comparison {
  /** What was compared (`a ~ b`, or `photo ~ mean(others of P)`). */
  label: string;
  similarity: number;
  genuine: boolean;
}

/** Five points of a distribution. */
export interface Distribution {
  count: number;
  min: number;
  p5: number;
  median: number;
  p95: number;
  max: number;
}

/** A threshold and the error rates at it (a comparison passes when its similarity is ≥ the threshold). */
export interface OperatingPoint {
  threshold: number;
  /** Impostor comparisons passing, 0-1. */
  far: number;
  /** Genuine comparisons failing, 0-1. */
  frr: number;
}

/** The evaluation of one decision (pairs, photo vs the rest, headshot vs the customer). */
export interface DecisionMetrics {
  genuine: Distribution;
  impostor: Distribution;
  /** Equal-error rate, 0-1: where FAR and FRR cross (their mean at the closest threshold). */
  eer: number;
  eerThreshold: number;
  /** The lowest-FRR threshold whose FAR is at most the target. */
  atTarget: OperatingPoint;
}

/** The five-point summary of `values` (nearest-rank percentiles). @throws {Error} on an empty list */
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) throw new Error('distribution needs at least one value');
  return {
    count: values.length,
    min: Math.min(...values),
    p5: percentile(values, 5),
    median: percentile(values, 50),
    p95: percentile(values, 95),
    max: Math.max(...values),
  };
}

/** Every unordered pair of photos: genuine when both show the same person. */
export function pairComparisons(set: readonly LabelledDescriptor[]): Comparison[] {
  const out: Comparison[] = [];
  for (let i = 0; i < set.length; i++)
    for (let j = i + 1; j < set.length; j++) {
      const a = set[i]!;
      const b = set[j]!;
      out.push({
        label: `${a.file} ~ ${b.file}`,
        similarity: cosine(a.descriptor, b.descriptor),
        genuine: a.person === b.person,
      });
    }
  return out;
}

const byPerson = (set: readonly LabelledDescriptor[]) => {
  const groups = new Map<string, LabelledDescriptor[]>();
  for (const d of set) groups.set(d.person, [...(groups.get(d.person) ?? []), d]);
  return groups;
};

/**
 * The same-person check as the product makes it (functions/domain/photo-checks.ts `differentPersonFlags`): one photo
 * against the mean descriptor of the rest of a customer's set. Genuine: each photo of a person with at least
 * `minOthers` other photos against the mean of those others (leave one out). Impostor: each photo against the mean of
 * every other person's set of at least `minOthers` photos (someone else's photo slipped into a set).
 */
export function leaveOneOutComparisons(set: readonly LabelledDescriptor[], minOthers = 2): Comparison[] {
  const groups = byPerson(set);
  const out: Comparison[] = [];
  for (const [person, photos] of groups) {
    if (photos.length - 1 >= minOthers)
      for (const photo of photos) {
        const others = meanDescriptor(photos.filter((p) => p !== photo).map((p) => p.descriptor));
        out.push({
          label: `${photo.file} ~ mean(${person} others)`,
          similarity: cosine(photo.descriptor, others),
          genuine: true,
        });
      }
    if (photos.length >= minOthers) {
      const mean = meanDescriptor(photos.map((p) => p.descriptor));
      for (const photo of set)
        if (photo.person !== person)
          out.push({
            label: `${photo.file} ~ mean(${person})`,
            similarity: cosine(photo.descriptor, mean),
            genuine: false,
          });
    }
  }
  return out;
}

/**
 * The likeness gate as the product makes it (functions/adapters/vision/likeness.ts): one face against the
 * customer's mean descriptor built from `references` photos. For each person with more than `references` photos,
 * every window of `references` consecutive photos (in the set's order, wrapping) is a customer; each of that person's
 * photos outside the window is a genuine comparison, every other person's photo an impostor one.
 */
export function gateComparisons(set: readonly LabelledDescriptor[], references = 3): Comparison[] {
  const out: Comparison[] = [];
  for (const [person, photos] of byPerson(set)) {
    if (photos.length <= references) continue;
    for (let start = 0; start < photos.length; start++) {
      const window = Array.from({ length: references }, (_, k) => photos[(start + k) % photos.length]!);
      const mean = meanDescriptor(window.map((p) => p.descriptor));
      const name = `${person}[${window.map((p) => p.file).join(',')}]`;
      for (const photo of set) {
        if (window.includes(photo)) continue;
        out.push({
          label: `${photo.file} ~ ${name}`,
          similarity: cosine(photo.descriptor, mean),
          genuine: photo.person === person,
        });
      }
    }
  }
  return out;
}

/** FAR and FRR at `threshold` (a comparison passes at similarity ≥ threshold). */
export function operatingPoint(comparisons: readonly Comparison[], threshold: number): OperatingPoint {
  const genuine = comparisons.filter((c) => c.genuine);
  const impostor = comparisons.filter((c) => !c.genuine);
  return {
    threshold,
    far: impostor.filter((c) => c.similarity >= threshold).length / Math.max(1, impostor.length),
    frr: genuine.filter((c) => c.similarity < threshold).length / Math.max(1, genuine.length),
  };
}

/**
 * Every threshold that changes an outcome: each observed similarity (passes at ≥), and one just over the highest so
 * that "accept nothing" is a candidate too.
 */
function candidateThresholds(comparisons: readonly Comparison[]): number[] {
  const values = [...new Set(comparisons.map((c) => c.similarity))].sort((a, b) => a - b);
  return [...values, (values.at(-1) ?? 0) + 1e-9];
}

/**
 * The lowest-FRR threshold with FAR ≤ `maxFar`, and among those the lowest FAR. Every threshold in a gap between
 * two observed similarities decides alike, so the best outcome holds on an interval; the answer is its middle (with
 * separated distributions: halfway between the highest impostor and the lowest genuine score), leaving equal margin
 * both ways instead of sitting on one observed score.
 */
export function thresholdAtFar(comparisons: readonly Comparison[], maxFar: number): OperatingPoint {
  const candidates = candidateThresholds(comparisons);
  const points = candidates.map((t) => operatingPoint(comparisons, t));
  let best = -1;
  points.forEach((p, i) => {
    if (p.far > maxFar) return;
    const b = points[best];
    if (!b || p.frr < b.frr || (p.frr === b.frr && p.far < b.far)) best = i;
  });
  let last = best;
  while (
    last + 1 < points.length &&
    points[last + 1]!.frr === points[best]!.frr &&
    points[last + 1]!.far === points[best]!.far
  )
    last++;
  const low = best > 0 ? candidates[best - 1]! : candidates[best]!;
  return operatingPoint(comparisons, (low + candidates[last]!) / 2);
}

/** The equal-error rate: at the threshold where |FAR − FRR| is smallest, their mean. */
export function equalErrorRate(comparisons: readonly Comparison[]): { eer: number; threshold: number } {
  let best = { gap: Number.POSITIVE_INFINITY, eer: 1, threshold: 0 };
  for (const t of candidateThresholds(comparisons)) {
    const { far, frr } = operatingPoint(comparisons, t);
    const gap = Math.abs(far - frr);
    if (gap < best.gap) best = { gap, eer: (far + frr) / 2, threshold: t };
  }
  return { eer: best.eer, threshold: best.threshold };
}

/**
 * Everything the decision record quotes for one decision.
 *
 * @throws {Error} when there is no genuine or no impostor comparison
 */
export function decisionMetrics(comparisons: readonly Comparison[], maxFar = 0.01): DecisionMetrics {
  const { eer, threshold } = equalErrorRate(comparisons);
  return {
    genuine: distribution(comparisons.filter((c) => c.genuine).map((c) => c.similarity)),
    impostor: distribution(comparisons.filter((c) => !c.genuine).map((c) => c.similarity)),
    eer,
    eerThreshold: threshold,
    atTarget: thresholdAtFar(comparisons, maxFar),
  };
}
