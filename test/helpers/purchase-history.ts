import type { Purchase } from '../../functions/contracts/purchase';

/**
 * A paid, unrefunded Popular Pack purchase as `GET /api/purchases` lists it (functions/contracts/purchase.ts): the pack
 * of docs/product-spec.md §9, 60 credits for $45.00 (4,500 cents). Without its id, receipt and date, which are each
 * purchase's own. The unit test of listPurchases and the end-to-end test of the route both expect it.
 */
export const POPULAR_PACK_PURCHASE = {
  packId: 'popular',
  packName: 'Popular Pack',
  credits: 60,
  amountCents: 4500,
  currency: 'usd',
  status: 'completed',
  creditsReversed: 0,
} as const satisfies Omit<Purchase, 'id' | 'receiptUrl' | 'createdAt'>;
