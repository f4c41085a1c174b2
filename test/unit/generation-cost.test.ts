import { describe, expect, it } from 'vitest';
import { CREDITS_PER_HEADSHOT } from '../../functions/domain/credits';
import { generationCost } from '../../functions/domain/generation-cost';

/*
 * The one rule a generation's price comes from (issue 35): the start's ledger spend (use-cases/start-generation.ts)
 * and every figure the wizard shows call it.
 */

describe('generationCost (functions/domain/generation-cost.ts)', () => {
  it('prices 6 headshots at 1 credit each by default, and at 2 each at high resolution', () => {
    expect(generationCost()).toBe(6);
    expect(generationCost({ resolution: 'standard' })).toBe(6);
    expect(generationCost({ resolution: 'high' })).toBe(12);
  });

  it('prices a regeneration (one slot) by its resolution too', () => {
    expect(generationCost({ slotCount: 1 })).toBe(CREDITS_PER_HEADSHOT.standard);
    expect(generationCost({ slotCount: 1, resolution: 'high' })).toBe(CREDITS_PER_HEADSHOT.high);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a slot count of %s', (slotCount) => {
    expect(() => generationCost({ slotCount })).toThrow(RangeError);
  });
});
