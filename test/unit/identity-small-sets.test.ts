import { describe, expect, it } from 'vitest';
import { IDENTITY_THRESHOLDS } from '../../functions/domain/photo-checks';
import type { LabelledDescriptor } from '../bench/identity-metrics';
import {
  iterativeExclusion,
  largestAgreeingGroup,
  leaveOneOut,
  medoidAnchor,
  pairwiseMedian,
  seededRandom,
  smallSetCells,
  smallSetTable,
} from '../bench/identity-small-sets';

/** The small-set measurement (test/bench/identity-small-sets.ts) on hand-made descriptors. */

// Shaped like the identity model's (docs/decisions/002-identity-model.md): one person's photos 0.978 apart, two
// people 0.85 (cosine normalises).
const axis = (i: number, weight: number) => Array.from({ length: 32 }, (_, j) => (j === i ? weight : 0));
const plus = (a: number[], b: number[]) => a.map((v, j) => v + b[j]!);
const photoOf = (person: number, k: number) =>
  plus(plus(axis(0, 1), axis(1 + person, person === 0 ? 0 : 0.6)), axis(10 + k, 0.15));

describe('set rules', () => {
  const twoAndOne = [photoOf(0, 0), photoOf(0, 1), photoOf(1, 0)];

  it('shows the rule before missing the other person among 2 + 1, and the product rule flagging it', () => {
    expect(leaveOneOut(twoAndOne, IDENTITY_THRESHOLDS)).toEqual([undefined, undefined, undefined]);
    for (const rule of [medoidAnchor, iterativeExclusion, pairwiseMedian, largestAgreeingGroup])
      expect(rule(twoAndOne, IDENTITY_THRESHOLDS)).toEqual([undefined, undefined, 'different_person']);
  });

  it('warns a set of two and two with every robust rule', () => {
    const set = [photoOf(0, 0), photoOf(1, 0), photoOf(0, 1), photoOf(1, 1)];
    for (const rule of [medoidAnchor, pairwiseMedian, largestAgreeingGroup])
      expect(rule(set, IDENTITY_THRESHOLDS)).toEqual(set.map(() => 'mixed_people'));
  });
});

describe('small-set cells', () => {
  const labelled: LabelledDescriptor[] = [0, 1, 2].flatMap((person) =>
    Array.from({ length: 5 }, (_, k) => ({
      file: `p${person}-${k}`,
      person: `p${person}`,
      descriptor: photoOf(person, k),
    })),
  );

  it('is deterministic for a seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    const options = { perCell: 20, maxSize: 6 };
    expect(smallSetCells(labelled, IDENTITY_THRESHOLDS, options)).toEqual(
      smallSetCells(labelled, IDENTITY_THRESHOLDS, options),
    );
  });

  it('counts misses per photo of the other person, false flags per photo of the customer, warnings per set', () => {
    const cells = smallSetCells(labelled, IDENTITY_THRESHOLDS, { perCell: 30, maxSize: 6 });
    const cell = (size: number, intruders: number) =>
      cells.find((c) => c.size === size && c.intruders === intruders)!;
    // 5 photos a person: sets of 6 one person's are not possible.
    expect(cell(6, 0).sets).toBe(0);
    // The rule before misses the other person whenever every leave-one-out mean holds them (here: often).
    expect(cell(3, 1).rules['leave-one-out (before)'].miss).toBeGreaterThan(0.3);
    expect(cell(3, 1).rules['medoid anchor (product)']).toEqual({ miss: 0, falseFlag: 0, warned: 0 });
    expect(cell(2, 1).rules['medoid anchor (product)']).toEqual({ miss: 0, falseFlag: 0, warned: 1 });
    expect(cell(4, 2).rules['medoid anchor (product)']).toEqual({ miss: 0, falseFlag: 0, warned: 1 });
    expect(cell(5, 2).rules['medoid anchor (product)']).toEqual({ miss: 0, falseFlag: 0, warned: 0 });
    // The customer is always the majority or tied: 1 + 2 is never drawn.
    expect(cells.some((c) => c.size - c.intruders < c.intruders)).toBe(false);
    expect(smallSetTable(cells)).toMatch(
      /\| 3: 2 \+ 1 \| 30 \| [\d.]+ \/ 0\.0 \/ 0\.0 \| 0\.0 \/ 0\.0 \/ 0\.0 \|/,
    );
    expect(smallSetTable(cells)).toContain('| 6: 6 + 0 | n/a |');
  });
});
