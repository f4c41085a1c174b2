import { Armchair, ExternalLink, Receipt } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Team } from '../../../../../functions/contracts/teams';
import { seatPriceCents } from '../../../../../functions/domain/team-seats';
import { Button } from '../../../components/ui/Button';
import { ShowMoreButton } from '../../../components/ui/ShowMoreButton';
import { ApiError } from '../../../lib/api-client';
import { formatAmount } from '../../../lib/format-price';
import { redirectTo } from '../../../lib/redirect';
import { startSeatCheckout, useTeamPurchases, type TeamPurchase } from '../api/seats';
import { formatDate, parseSeats } from '../utils/team-form';
import { SEATS_TEXT } from '../utils/text';
import { FIELD_CLASSES, Panel, Problem } from './TeamLayout';
import { FieldLabel } from '../../../components/ui/FieldLabel';

/** The purchase status as the dashboard's history names it. */
const STATUS = { completed: 'Paid', refunded: 'Refunded', disputed: 'Disputed' } as const;

/**
 * 'Seats' of a team's page (docs/product-spec.md §2 "Teams"): the credits left in the team's ledger, what a seat
 * is, 'Number of seats' with the price line the server will charge (decision 029's `seatPriceCents`, the same rule),
 * 'Buy seats' to Stripe Checkout in this tab, what a refunded purchase left owing, and the team's purchase history.
 */
export function SeatsPanel({
  team,
  cancelled = false,
}: {
  team: Team & { admin: NonNullable<Team['admin']> };
  /** Back from Stripe Checkout without paying: 'Payment not completed. You have not been charged.' */
  cancelled?: boolean;
}) {
  const quantityId = useId();
  const [quantity, setQuantity] = useState('1');
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  const seats = parseSeats(quantity);

  const buy = async (event: FormEvent) => {
    event.preventDefault();
    if (seats === null || busy.current) return;
    busy.current = true;
    setPending(true);
    try {
      const url = await startSeatCheckout(team.teamId, seats);
      toast.success(SEATS_TEXT.redirecting);
      redirectTo(url);
    } catch (error) {
      busy.current = false;
      setPending(false);
      toast.error(error instanceof ApiError && error.status !== 500 ? error.message : SEATS_TEXT.failed);
    }
  };

  return (
    <Panel id="team-seats" icon={Armchair} title={SEATS_TEXT.heading}>
      <p
        data-testid="team-balance"
        className="mt-3 text-2xl font-bold tracking-tight text-slate-900 tabular-nums"
      >
        {SEATS_TEXT.creditsLeft(team.admin.balance)}
      </p>
      <p className="mt-1 text-sm text-slate-600">{SEATS_TEXT.explainer}</p>
      {team.admin.creditsOwed > 0 && (
        <p className="mt-3 rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {SEATS_TEXT.owing(team.admin.creditsOwed)}
        </p>
      )}
      {cancelled && (
        <p role="status" className="mt-3 rounded-2xl bg-slate-100 p-3 text-sm font-medium text-slate-800">
          {SEATS_TEXT.notCompleted}
        </p>
      )}
      <form onSubmit={(event) => void buy(event)} className="mt-5 flex flex-wrap items-end gap-3">
        <div className="w-40">
          <FieldLabel htmlFor={quantityId}>{SEATS_TEXT.quantity}</FieldLabel>
          <input
            id={quantityId}
            type="number"
            inputMode="numeric"
            min={1}
            max={200}
            step={1}
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
            aria-describedby={`${quantityId}-price`}
            className={`${FIELD_CLASSES} mt-1.5`}
          />
        </div>
        <Button type="submit" size="md" loading={pending} disabled={seats === null}>
          {SEATS_TEXT.buy}
        </Button>
        <p
          id={`${quantityId}-price`}
          aria-live="polite"
          className="w-full text-sm font-medium text-slate-700"
        >
          {seats === null ? '\u00a0' : SEATS_TEXT.priceLine(seats, seatPriceCents(seats))}
        </p>
      </form>
      <TeamPurchases teamId={team.teamId} />
    </Panel>
  );
}

/** The team's 'Purchase history', as the dashboard's: date, seats, amount, status and Stripe's receipt. */
function TeamPurchases({ teamId }: { teamId: string }) {
  const purchases = useTeamPurchases(teamId, true);
  const items = purchases.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="mt-6 border-t border-slate-100 pt-5" data-testid="team-purchases">
      <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <Receipt aria-hidden="true" className="size-4 text-slate-500" />
        {SEATS_TEXT.purchases}
      </h3>
      {purchases.isError ? (
        <Problem message={purchases.error.message} onRetry={() => void purchases.refetch()} />
      ) : purchases.isPending ? null : items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{SEATS_TEXT.purchasesEmpty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200">
          {items.map((p) => (
            <PurchaseRow key={p.id} purchase={p} />
          ))}
        </ul>
      )}
      <ShowMoreButton query={purchases} className="mt-3" />
    </div>
  );
}

function PurchaseRow({ purchase: p }: { purchase: TeamPurchase }) {
  return (
    <li data-testid="team-purchase" className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3 text-sm">
      <span className="text-slate-600">{formatDate(p.createdAt)}</span>
      <span className="font-medium text-slate-900">
        {SEATS_TEXT.pack} · {p.seats}
      </span>
      <span className="text-slate-900 tabular-nums">{formatAmount(p.amountCents, p.currency)}</span>
      <span
        className={
          p.status === 'completed'
            ? 'rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800'
            : 'rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900'
        }
      >
        {STATUS[p.status]}
      </span>
      <span className="text-slate-600">{p.buyerEmail}</span>
      {p.receiptUrl && (
        <a
          href={p.receiptUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex min-h-10 items-center gap-1 font-semibold text-brand-700 hover:underline sm:ml-auto sm:min-h-0"
        >
          Receipt
          <span className="sr-only">
            {' '}
            for {p.seats} seats, {formatDate(p.createdAt)} (opens in a new tab)
          </span>
          <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      )}
    </li>
  );
}
