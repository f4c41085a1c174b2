import { Gem, RefreshCw } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useMe } from '../lib/api/get-me';
import { cx } from '../lib/cx';
import { Skeleton } from './ui/Skeleton';
import { paths } from '../config/paths';

/** Credits under this count are "running low" (one generation costs 6; docs/product-spec.md §9). */
const LOW_CREDITS = 6;

/** Props of {@link CreditsBadge}. */
export interface CreditsBadgeProps {
  className?: string;
}

/** `1 credit`, `6 credits`. */
export function formatCredits(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}

/**
 * The header's credit count for signed-in screens: a pill reading 'N credits' that links to /pricing (amber under
 * 6 credits), a small skeleton while `GET /api/me` loads, and a 'Retry credits' button if it failed. Reads
 * {@link useMe}, so it must be rendered below `AuthProvider`, inside the router.
 */
export function CreditsBadge({ className }: CreditsBadgeProps) {
  const me = useMe();
  const base =
    'inline-flex h-9 items-center gap-1.5 rounded-full px-3.5 text-sm font-semibold whitespace-nowrap ring-1 ' +
    'ring-inset transition';

  if (me.isPending && !me.isError) {
    return (
      <span role="status" className={cx('inline-flex h-9 items-center', className)}>
        <Skeleton className="h-9 w-24 rounded-full" />
        <span className="sr-only">Loading your credits…</span>
      </span>
    );
  }

  if (me.isError && me.data === undefined) {
    return (
      <button
        type="button"
        onClick={() => void me.refetch()}
        title="Couldn't load your credits. Retry"
        className={cx(base, 'bg-white text-slate-700 ring-slate-200 hover:bg-slate-50', className)}
      >
        <RefreshCw aria-hidden="true" className={cx('size-4', me.isFetching && 'animate-spin')} />
        Retry credits
      </button>
    );
  }

  const credits = me.data?.credits;
  const low = credits !== undefined && credits < LOW_CREDITS;
  return (
    <Link
      to={paths.pricing.href}
      data-testid="credits-badge"
      title="Buy more credits"
      className={cx(
        base,
        low
          ? 'bg-amber-50 text-amber-800 ring-amber-200 hover:bg-amber-100'
          : 'bg-brand-50 text-brand-700 ring-brand-200 hover:bg-brand-100',
        className,
      )}
    >
      <Gem aria-hidden="true" className="size-4" />
      {credits === undefined ? 'Credits' : formatCredits(credits)}
    </Link>
  );
}
