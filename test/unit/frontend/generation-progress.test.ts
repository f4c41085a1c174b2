import { describe, expect, it } from 'vitest';
import {
  clampPercent,
  generationPercentOf,
  generationProgressOf,
} from '../../../frontend/src/hooks/use-generation-progress';
import { generationOf, headshotOf } from './fixtures';

/* How far a generation is, as the wizard's step 4 and header, the dashboard and the wizard's notice all say it. */

describe('generation progress (hooks/use-generation-progress)', () => {
  it('clamps the bar to 0-100', () => {
    expect(clampPercent(undefined)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(44.6)).toBe(45);
    expect(clampPercent(130)).toBe(100);
  });

  it('shows 100 once a generation delivered, else its progress, else what was known before the first poll', () => {
    expect(generationPercentOf(generationOf({ status: 'partial', progress: 70 }))).toBe(100);
    expect(generationPercentOf(generationOf({ status: 'succeeded', progress: 98 }))).toBe(100);
    expect(generationPercentOf(generationOf({ status: 'failed', progress: 45.4 }))).toBe(45);
    expect(generationPercentOf(undefined)).toBe(5);
    expect(generationPercentOf(undefined, 61)).toBe(61);
  });

  it('says the place in line only while the generation waits, and counts what is saved of what is expected', () => {
    const fallback = { progress: 20, headshotsExpected: 1 };
    expect(generationProgressOf(undefined, fallback)).toEqual({
      percent: 20,
      waiting: null,
      saved: 0,
      expected: 1,
    });
    const waiting = generationOf({ progress: 30, queue: { position: 3, etaSeconds: 90 } });
    expect(generationProgressOf(waiting, fallback)).toMatchObject({
      waiting: { position: 3, etaSeconds: 90 },
      expected: 6,
    });
    const next = generationOf({ queue: { position: 0, etaSeconds: 0 }, headshots: [headshotOf(0)] });
    expect(generationProgressOf(next, fallback)).toMatchObject({ waiting: null, saved: 1 });
  });
});
