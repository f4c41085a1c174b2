import { describe, expect, it } from 'vitest';
import { InvalidCursorError } from '../../functions/domain/gallery';
import { purchasePage } from '../../functions/domain/purchase-history';

/* The purchase history's order and pages (functions/domain/purchase-history.ts). */

const p = (id: string, createdAt: string) => ({ checkoutSessionId: id, createdAt });

describe('purchasePage', () => {
  const all = [
    p('cs_a', '2026-11-01T10:00:00.000Z'),
    p('cs_c', '2026-11-03T10:00:00.000Z'),
    p('cs_b', '2026-11-02T10:00:00.000Z'),
    p('cs_d', '2026-11-02T10:00:00.000Z'),
  ];

  it('orders newest first (equal times by id) and pages with the last id shown as the cursor', () => {
    const first = purchasePage(all, undefined, 2);
    expect(first.items.map((x) => x.checkoutSessionId)).toEqual(['cs_c', 'cs_d']);
    expect(first.nextCursor).toBe('cs_d');
    const second = purchasePage(all, 'cs_d', 2);
    expect(second.items.map((x) => x.checkoutSessionId)).toEqual(['cs_b', 'cs_a']);
    expect(second.nextCursor).toBeNull();
    expect(purchasePage([], undefined, 20)).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a cursor that names none of the caller’s purchases', () => {
    expect(() => purchasePage(all, 'cs_zzz', 2)).toThrow(InvalidCursorError);
  });
});
