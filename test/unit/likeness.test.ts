import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIKENESS_THRESHOLD,
  DIFFERENT_PERSON_COSINE,
  GATE_COSINE,
  likenessFromCosine,
} from '../../functions/domain/likeness';
import { DIFFERENT_PERSON_LIKENESS } from '../../functions/domain/photo-checks';

/** The likeness scale's calibration (functions/domain/likeness.ts; docs/decisions/002-identity-model.md). */
describe('likeness scale', () => {
  it('puts the calibrated gate at the default threshold and the same person’s median at 90', () => {
    expect(likenessFromCosine(GATE_COSINE)).toBe(DEFAULT_LIKENESS_THRESHOLD);
    expect(likenessFromCosine(0.982)).toBe(90);
    // The evaluation's closest other person (0.924) and its typical one (0.823) score far under the gate.
    expect(likenessFromCosine(0.924)).toBeLessThan(DEFAULT_LIKENESS_THRESHOLD - 10);
    expect(likenessFromCosine(0.823)).toBe(0);
    // The same person's lowest (0.959) passes with room.
    expect(likenessFromCosine(0.959)).toBeGreaterThan(DEFAULT_LIKENESS_THRESHOLD + 10);
  });

  it('stays within 0-100 and never decreases', () => {
    const cosines = Array.from({ length: 201 }, (_, i) => -1 + i / 100);
    const scores = cosines.map(likenessFromCosine);
    expect(Math.min(...scores)).toBe(0);
    expect(Math.max(...scores)).toBe(100);
    expect(scores.every((s, i) => i === 0 || s >= scores[i - 1]!)).toBe(true);
  });

  it('shows the same-person flag’s threshold on the same scale', () => {
    expect(DIFFERENT_PERSON_LIKENESS).toBe(likenessFromCosine(DIFFERENT_PERSON_COSINE));
    expect(Math.abs(DIFFERENT_PERSON_LIKENESS - DEFAULT_LIKENESS_THRESHOLD)).toBeLessThanOrEqual(1);
  });
});
