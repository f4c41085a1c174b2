import * as z from 'zod/mini';

/**
 * `GET /api/purchases` (docs/architecture.md §3): the caller's purchase history, newest first, for the dashboard's
 * "Purchase history" (issue 27.7). Pure zod: safe in the browser bundle.
 */

/** Purchases per page. */
export const PURCHASES_PAGE_SIZE = 20;

/** `GET /api/purchases?cursor=` query: `cursor` is a page's `nextCursor` (a Checkout Session id). */
export const purchasesQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.regex(/^cs_[A-Za-z0-9_]{1,250}$/))),
});
export type PurchasesQuery = z.input<typeof purchasesQuerySchema>;

/** Where a purchase stands: paid and credited, or (partly) taken back by a refund or a dispute. */
export const PURCHASE_STATUSES = ['completed', 'refunded', 'disputed'] as const;

/** One purchase as the history shows it. */
export const purchaseSchema = z.object({
  /** The Checkout Session id (`cs_…`). */
  id: z.string(),
  packId: z.string(),
  /** The pack's name when it is still sold ("Popular Pack"), else the id. */
  packName: z.string(),
  credits: z.number().check(z.int(), z.gte(0)),
  /** Charged, in the currency's minor unit (cents), after any promotion code. */
  amountCents: z.number().check(z.int(), z.gte(0)),
  /** ISO 4217, lower case (`usd`). */
  currency: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  /** Credits taken back by refunds and disputes. */
  creditsReversed: z.number().check(z.int(), z.gte(0)),
  /** Stripe's receipt of the charge (`receipt_url`); null for a free (100 % promotion code) or older purchase. */
  receiptUrl: z.nullable(z.string().check(z.url({ protocol: /^https?$/ }))),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** `GET /api/purchases` 200: one page, newest first; `nextCursor` null on the last page. */
export const purchasesPageSchema = z.object({
  items: z.array(purchaseSchema),
  nextCursor: z.nullable(z.string()),
});
export type PurchasesPage = z.infer<typeof purchasesPageSchema>;
