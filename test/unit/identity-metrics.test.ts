import { describe, expect, it } from 'vitest';
import {
  decisionMetrics,
  distribution,
  equalErrorRate,
  gateComparisons,
  leaveOneOutComparisons,
  operatingPoint,
  pairComparisons,
  thresholdAtFar,
  type Comparison,
  type LabelledDescriptor,
} from '../bench/identity-metrics';

/** The identity evaluation's arithmetic (test/bench/identity-metrics.ts) on hand-made scores and vectors. */

const genuine = (similarity: number): Comparison => ({ label: 'g', similarity, genuine: true });
const impostor = (similarity: number): Comparison => ({ label: 'i', similarity, genuine: false });

describe('error rates', () => {
  const comparisons = [
    ...[0.9, 0.8, 0.7, 0.6].map(genuine),
    ...[0.65, 0.5, 0.4, 0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1].map(impostor),
  ];

  it('counts a comparison at the threshold as accepted', () => {
    expect(operatingPoint(comparisons, 0.65)).toEqual({ threshold: 0.65, far: 0.1, frr: 0.25 });
    expect(operatingPoint(comparisons, 0.6)).toEqual({ threshold: 0.6, far: 0.1, frr: 0 });
    expect(operatingPoint(comparisons, 0.95)).toEqual({ threshold: 0.95, far: 0, frr: 1 });
  });

  it('keeps false accepts under the target, then rejects the fewest genuine, in the middle of the gap', () => {
    // FAR ≤ 0 forces the threshold over 0.65: FRR 1/4 between 0.65 and 0.7 — its middle is 0.675.
    const strict = thresholdAtFar(comparisons, 0);
    expect(strict.far).toBe(0);
    expect(strict.frr).toBe(0.25);
    expect(strict.threshold).toBeCloseTo(0.675, 9);
    // 10 % allowed: the one impostor at 0.65 may pass and every genuine does; the gap (0.5, 0.6] → 0.55.
    const loose = thresholdAtFar(comparisons, 0.1);
    expect(loose).toMatchObject({ far: 0.1, frr: 0 });
    expect(loose.threshold).toBeCloseTo(0.55, 9);
  });

  it('puts separated distributions’ threshold halfway between them, with an EER of 0', () => {
    const separated = [...[0.96, 0.97].map(genuine), ...[0.9, 0.92].map(impostor)];
    expect(thresholdAtFar(separated, 0.01)).toEqual({ threshold: 0.94, far: 0, frr: 0 });
    expect(equalErrorRate(separated).eer).toBe(0);
  });

  it('finds the equal-error rate where the two rates cross', () => {
    const crossing = [...[0.9, 0.7, 0.5, 0.3].map(genuine), ...[0.8, 0.6, 0.4, 0.2].map(impostor)];
    expect(equalErrorRate(crossing).eer).toBe(0.5);
    const metrics = decisionMetrics(crossing);
    expect(metrics.genuine).toMatchObject({ count: 4, min: 0.3, max: 0.9 });
    expect(metrics.impostor).toMatchObject({ count: 4, min: 0.2, max: 0.8 });
  });

  it('summarises a distribution by nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(distribution(values)).toEqual({ count: 100, min: 1, p5: 5, median: 50, p95: 95, max: 100 });
    expect(() => distribution([])).toThrow();
  });
});

describe('comparisons of a labelled set', () => {
  // Two people on two axes, with a little spread, and a third person between them.
  const set: LabelledDescriptor[] = [
    { file: 'a1', person: 'a', descriptor: [1, 0.1, 0] },
    { file: 'a2', person: 'a', descriptor: [1, -0.1, 0] },
    { file: 'a3', person: 'a', descriptor: [1, 0, 0.1] },
    { file: 'a4', person: 'a', descriptor: [1, 0, -0.1] },
    { file: 'b1', person: 'b', descriptor: [0, 1, 0.1] },
    { file: 'b2', person: 'b', descriptor: [0, 1, -0.1] },
    { file: 'c1', person: 'c', descriptor: [0.7, 0.7, 0] },
  ];

  it('pairs every two photos once, genuine when they show the same person', () => {
    const pairs = pairComparisons(set);
    expect(pairs).toHaveLength((7 * 6) / 2);
    expect(pairs.filter((p) => p.genuine)).toHaveLength(6 + 1);
    expect(pairs.find((p) => p.label === 'a1 ~ b1')).toMatchObject({ genuine: false });
  });

  it('compares each photo with the mean of the rest of its set, and with other people’s sets', () => {
    const loo = leaveOneOutComparisons(set);
    // Person a has 3 others per photo (4 genuine); b has 1 other (too few to judge, as the product needs 3 photos).
    expect(loo.filter((c) => c.genuine).map((c) => c.label)).toEqual([
      'a1 ~ mean(a others)',
      'a2 ~ mean(a others)',
      'a3 ~ mean(a others)',
      'a4 ~ mean(a others)',
    ]);
    // Impostors: every non-a photo against a's mean, every non-b photo against b's mean (b has 2 photos).
    expect(loo.filter((c) => !c.genuine)).toHaveLength(3 + 5);
    expect(Math.min(...loo.filter((c) => c.genuine).map((c) => c.similarity))).toBeGreaterThan(0.99);
  });

  it('judges single faces against the mean of a customer’s 3 references', () => {
    const gate = gateComparisons(set, 3);
    // Only a has more than 3 photos: 4 windows, each leaving 1 genuine photo and 3 impostors.
    expect(gate.filter((c) => c.genuine)).toHaveLength(4);
    expect(gate.filter((c) => !c.genuine)).toHaveLength(12);
    expect(gate.every((c) => !c.label.startsWith('a') || c.genuine)).toBe(true);
  });
});
