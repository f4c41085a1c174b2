import { describe, expect, it } from 'vitest';
import { expireLocalObjects } from '../../../functions/use-cases/expire-objects';
import { OBJECT_EXPIRY_RULES, type ObjectExpiryRule } from '../../../functions/domain/retention';
import { failing } from './fakes/failures';

const NOW = new Date('2026-01-01T00:00:00.000Z');

describe('expireLocalObjects', () => {
  it('applies every lifecycle rule at the same moment and reports what each deleted', async () => {
    const applied: [ObjectExpiryRule, Date][] = [];
    const result = await expireLocalObjects(NOW, {
      expireObjects: async (rule, now) => {
        applied.push([rule, now]);
        return rule.days;
      },
    });
    expect(applied).toEqual(OBJECT_EXPIRY_RULES.map((rule) => [rule, NOW]));
    expect(result.deleted).toEqual(Object.fromEntries(OBJECT_EXPIRY_RULES.map((r) => [r.prefix, r.days])));
  });

  it('fails when a rule cannot be applied (the next hourly run starts over)', async () => {
    await expect(expireLocalObjects(NOW, { expireObjects: failing(new Error('S3 down')) })).rejects.toThrow(
      'S3 down',
    );
  });
});
