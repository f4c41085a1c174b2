import { describe, expect, it } from 'vitest';
import { reversalTarget } from '../../functions/domain/reversals';

describe('reversalTarget', () => {
  it('takes everything back for a dispute or a full refund', () => {
    expect(reversalTarget(60, { kind: 'dispute' })).toBe(60);
    expect(reversalTarget(60, { kind: 'refund', amount: 4500, amountRefunded: 4500 })).toBe(60);
  });

  it('takes the refunded share, rounded up, and grows only with the cumulative refund', () => {
    expect(reversalTarget(60, { kind: 'refund', amount: 4500, amountRefunded: 1500 })).toBe(20);
    expect(reversalTarget(60, { kind: 'refund', amount: 4500, amountRefunded: 1 })).toBe(1);
    expect(reversalTarget(60, { kind: 'refund', amount: 4500, amountRefunded: 0 })).toBe(0);
    const older = reversalTarget(40, { kind: 'refund', amount: 3500, amountRefunded: 1000 });
    const newer = reversalTarget(40, { kind: 'refund', amount: 3500, amountRefunded: 2000 });
    expect(newer).toBeGreaterThan(older);
  });
});
