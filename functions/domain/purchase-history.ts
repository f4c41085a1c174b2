import type { Purchase } from '../contracts/purchase';
import { InvalidCursorError } from './gallery';

/**
 * One page of a purchase history, newest first (issue 27.7). Purchase items are keyed by their Checkout Session id
 * (`PURCHASE#cs_…`: fulfilment's idempotency key, docs/architecture.md §2), which does not sort by time, so the
 * caller's purchases are read whole (a customer has tens, not thousands) and ordered here by `createdAt`, then by
 * id so equal times keep one order. The cursor is the id of the last purchase shown.
 *
 * @param all every purchase of the caller, in any order
 * @param cursor the `nextCursor` of the previous page, or `undefined` for the first
 * @param size purchases per page (≥ 1)
 * @returns the page and the cursor of the next one (`null` on the last page)
 * @throws {InvalidCursorError} when `cursor` names no purchase of the caller
 */
export function purchasePage<T extends { checkoutSessionId: string; createdAt: string }>(
  all: readonly T[],
  cursor: string | undefined,
  size: number,
): { items: T[]; nextCursor: string | null } {
  const sorted = [...all].sort(
    (a, b) =>
      b.createdAt.localeCompare(a.createdAt) || b.checkoutSessionId.localeCompare(a.checkoutSessionId),
  );
  let start = 0;
  if (cursor !== undefined) {
    const at = sorted.findIndex((p) => p.checkoutSessionId === cursor);
    if (at < 0) throw new InvalidCursorError();
    start = at + 1;
  }
  const items = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return { items, nextCursor: more ? items[items.length - 1]!.checkoutSessionId : null };
}

/** The fields of a stored purchase (adapters/purchases.ts `PurchaseRecord`) that its history row shows. */
export interface PurchaseRowSource {
  checkoutSessionId: string;
  packId: string;
  credits: number;
  /** Cents charged. */
  amountTotal: number;
  currency: string;
  status: Purchase['status'];
  creditsReversed: number;
  receiptUrl: string | null;
  createdAt: string;
}

/**
 * A purchase as a history shows it (contracts/purchase.ts `Purchase`), the personal one's and the team's alike:
 * `packName` is the caller's to give (the pack's name, or the team's seat pack).
 */
export function purchaseRow(p: PurchaseRowSource, packName: string): Purchase {
  return {
    id: p.checkoutSessionId,
    packId: p.packId,
    packName,
    credits: p.credits,
    amountCents: p.amountTotal,
    currency: p.currency,
    status: p.status,
    creditsReversed: p.creditsReversed,
    receiptUrl: p.receiptUrl,
    createdAt: p.createdAt,
  };
}
