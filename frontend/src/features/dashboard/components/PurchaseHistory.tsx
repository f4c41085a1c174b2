import { ExternalLink, Receipt } from 'lucide-react';
import { ShowMoreButton } from '../../../components/ui/ShowMoreButton';
import { formatPrice } from '../../../lib/format-price';
import { usePurchases, type Purchase } from '../api/get-purchases';

/** The purchase history's texts (docs/product-spec.md, Dashboard). */
export const PURCHASES_TEXT = {
  heading: 'Purchase history',
  empty: 'No purchases yet. Credits you buy will be listed here with their receipts.',
  failed: "We couldn't load your purchases.",
  retry: 'Try again',
  more: 'Show more',
  receipt: 'Receipt',
  status: { completed: 'Paid', refunded: 'Refunded', disputed: 'Disputed' },
} as const;

/** The table's headed columns, in order; the receipt link's column is headed for screen readers only. */
const COLUMNS = ['Date', 'Pack', 'Amount', 'Status'] as const;

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * The dashboard's purchase history (issue 27.7): date, pack, amount, status and Stripe's receipt for each purchase,
 * newest first (`GET /api/purchases`), 20 at a time with "Show more". A table from `sm` up; on a phone each
 * row stacks.
 */
export function PurchaseHistory() {
  const purchases = usePurchases();
  const items = purchases.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="purchases-heading" className="mt-12" data-testid="purchase-history">
      <h2 id="purchases-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Receipt aria-hidden="true" className="size-5 text-slate-500" />
        {PURCHASES_TEXT.heading}
      </h2>
      {purchases.isError ? (
        <p className="mt-3 text-sm text-slate-600" role="alert">
          {PURCHASES_TEXT.failed}{' '}
          <button
            type="button"
            className="font-semibold text-brand-700 underline"
            onClick={() => void purchases.refetch()}
          >
            {PURCHASES_TEXT.retry}
          </button>
        </p>
      ) : purchases.isPending ? null : items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{PURCHASES_TEXT.empty}</p>
      ) : (
        <table className="mt-4 w-full text-left text-sm">
          <thead className="sr-only sm:not-sr-only">
            <tr className="text-xs text-slate-500">
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="py-2 font-medium">
                  {column}
                </th>
              ))}
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">{PURCHASES_TEXT.receipt}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 border-y border-slate-200">
            {items.map((p) => (
              <PurchaseRow key={p.id} purchase={p} />
            ))}
          </tbody>
        </table>
      )}
      <ShowMoreButton query={purchases} className="mt-4" label={PURCHASES_TEXT.more} />
    </section>
  );
}

function PurchaseRow({ purchase: p }: { purchase: Purchase }) {
  return (
    <tr className="grid grid-cols-2 gap-x-3 gap-y-1 py-3 sm:table-row" data-testid="purchase">
      <td className="text-slate-600 sm:py-3">{DATE.format(new Date(p.createdAt))}</td>
      <td className="text-right font-medium text-slate-900 sm:text-left">
        {p.packName} · {p.credits} credits
      </td>
      <td className="text-slate-900 tabular-nums">{formatPrice(p.amountCents, p.currency)}</td>
      <td className="text-right sm:text-left">
        <span
          className={
            p.status === 'completed'
              ? 'rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800'
              : 'rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900'
          }
        >
          {PURCHASES_TEXT.status[p.status]}
        </span>
      </td>
      <td className="col-span-2 sm:text-right">
        {p.receiptUrl && (
          <a
            href={p.receiptUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-10 items-center gap-1 font-semibold text-brand-700 hover:underline sm:min-h-0"
          >
            {PURCHASES_TEXT.receipt}
            <span className="sr-only">
              {' '}
              for {p.packName}, {DATE.format(new Date(p.createdAt))} (opens in a new tab)
            </span>
            <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        )}
      </td>
    </tr>
  );
}
