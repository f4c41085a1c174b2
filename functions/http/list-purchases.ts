import { purchasesQuerySchema, type PurchasesPage } from '../contracts/purchase';
import { listPurchases } from '../use-cases/list-purchases';
import { callerOf, httpHandler, json, parseQuery } from './handler';

/**
 * `GET /api/purchases?cursor=` (jwt) → 200 `{ items: [{ id, packId, packName, credits, amountCents, currency,
 * status, creditsReversed, receiptUrl, createdAt }], nextCursor: string | null }`.
 *
 * The caller's purchases (only their own partition is read), newest first, 20 per page; pass `nextCursor` back as
 * `cursor`. `receiptUrl` is Stripe's receipt of the charge, stored at fulfilment (null for a free purchase).
 *
 * Errors: 400 `VALIDATION_ERROR` for a malformed cursor; 400 `INVALID_CURSOR` for one that names no purchase of
 * the caller.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { cursor } = parseQuery(event, purchasesQuerySchema);
  return json<PurchasesPage>(200, await listPurchases(sub, cursor));
});
