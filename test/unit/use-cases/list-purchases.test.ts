import { describe, expect, it } from 'vitest';
import { InvalidCursorError } from '../../../functions/domain/gallery';
import { listPurchases } from '../../../functions/use-cases/list-purchases';
import { POPULAR_PACK_PURCHASE } from '../../helpers/purchase-history';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';
import { FakePurchases } from './fakes/purchases';

const sub = 'buyer-1';

/** 23 purchases of `sub`, a minute apart (cs_test_00 oldest), and one of someone else. */
function setup() {
  const purchases = new FakePurchases(new FakeLedger());
  for (let i = 0; i < 23; i++) {
    const id = `cs_test_${String(i).padStart(2, '0')}`;
    purchases.seedPurchase(sub, {
      checkoutSessionId: id,
      packId: 'popular',
      credits: 60,
      amountTotal: 4500,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    });
  }
  purchases.seedPurchase('someone-else', { checkoutSessionId: 'cs_test_other' });
  return purchases;
}

describe('listPurchases: the caller’s purchase history', () => {
  it('lists the caller’s purchases newest first, 20 a page, with the pack’s name and the amount in cents', async () => {
    const purchases = setup();
    const first = await listPurchases(sub, undefined, purchases);
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toEqual({
      id: 'cs_test_22',
      ...POPULAR_PACK_PURCHASE,
      receiptUrl: null,
      createdAt: '2026-01-01T00:22:00.000Z',
    });
    expect(first.nextCursor).toBe('cs_test_03');
    const second = await listPurchases(sub, first.nextCursor!, purchases);
    expect(second.items.map((p) => p.id)).toEqual(['cs_test_02', 'cs_test_01', 'cs_test_00']);
    expect(second.nextCursor).toBeNull();
  });

  it('names a pack no longer sold by its id', async () => {
    const purchases = new FakePurchases(new FakeLedger());
    purchases.seedPurchase(sub, { checkoutSessionId: 'cs_test_old', packId: 'retired' });
    expect((await listPurchases(sub, undefined, purchases)).items[0]?.packName).toBe('retired');
  });

  it('throws InvalidCursorError for a cursor naming no purchase of the caller (another user’s included)', async () => {
    const purchases = setup();
    await expect(listPurchases(sub, 'cs_test_other', purchases)).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('lets a failing table through', async () => {
    await expect(listPurchases(sub, undefined, { readAllPurchases: failing() })).rejects.toThrow('port down');
  });
});
