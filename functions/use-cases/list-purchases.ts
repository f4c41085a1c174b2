import { readAllPurchases } from '../adapters/purchases';
import { PURCHASES_PAGE_SIZE, type PurchasesPage } from '../contracts/purchase';
import { findPack } from '../domain/packs';
import { purchasePage, purchaseRow } from '../domain/purchase-history';

/** What the purchase history needs from the outside world: every purchase of the caller. */
export interface ListPurchasesPorts {
  readAllPurchases: typeof readAllPurchases;
}

const adapters: ListPurchasesPorts = { readAllPurchases };

/**
 * The caller's purchase history, `GET /api/purchases` (issue 27.7): their purchases (only their own partition is
 * read) newest first, {@link PURCHASES_PAGE_SIZE} a page, each with its pack's name, the amount in cents, where it
 * stands (refunded, disputed, credits reversed) and Stripe's receipt (null for a free purchase).
 *
 * @param cursor the previous page's `nextCursor`
 * @throws {InvalidCursorError} for a cursor that names no purchase of the caller
 */
export async function listPurchases(
  sub: string,
  cursor: string | undefined,
  ports: ListPurchasesPorts = adapters,
): Promise<PurchasesPage> {
  const page = purchasePage(await ports.readAllPurchases(sub), cursor, PURCHASES_PAGE_SIZE);
  return {
    items: page.items.map((p) => purchaseRow(p, findPack(p.packId)?.name ?? p.packId)),
    nextCursor: page.nextCursor,
  };
}
