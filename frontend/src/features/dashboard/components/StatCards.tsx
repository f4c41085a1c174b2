import { Gem, Heart, Images, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/Button';
import { CreditsRetry } from '../../../components/CreditsRetry';
import { Skeleton } from '../../../components/ui/Skeleton';
import { cx } from '../../../lib/cx';
import type { GalleryStats } from '../../../lib/api/contracts';
import { paths } from '../../../config/paths';

/** Credits under this count cannot pay for a generation (docs/product-spec.md §9: low-credit threshold under 6). */
export const LOW_CREDITS = 6;

/** Props of {@link StatCards}. */
export interface StatCardsProps {
  /** Undefined while loading. */
  stats: GalleryStats | undefined;
  /** Undefined while loading (or when `GET /api/me` failed). */
  credits: number | undefined;
  /** `GET /api/me` failed: the credits card offers a retry instead of a skeleton. */
  creditsFailed?: boolean;
  onRetryCredits?: () => void;
  retryingCredits?: boolean;
}

/**
 * The three stat cards of docs/product-spec.md §2: Total Headshots, Favorites, Credits Available — the last with a 'Buy More
 * Credits' button (to /pricing) when fewer than 6 credits are left.
 */
export function StatCards({
  stats,
  credits,
  creditsFailed = false,
  onRetryCredits,
  retryingCredits,
}: StatCardsProps) {
  const low = credits !== undefined && credits < LOW_CREDITS;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
      <StatCard icon={Images} label="Total Headshots" value={stats?.total} />
      <StatCard icon={Heart} label="Favorites" value={stats?.favorites} />
      <StatCard
        icon={Gem}
        label="Credits Available"
        value={credits}
        tone={low ? 'warning' : 'default'}
        className="col-span-2 sm:col-span-1"
        failed={
          creditsFailed && credits === undefined && onRetryCredits ? (
            <CreditsRetry onRetry={onRetryCredits} retrying={retryingCredits} />
          ) : undefined
        }
      >
        {low && (
          <ButtonLink to={paths.pricing.href} size="sm" className="mt-3 w-full lg:w-auto">
            Buy More Credits
          </ButtonLink>
        )}
      </StatCard>
    </dl>
  );
}

function StatCard({
  icon: Icon,
  label,
  value,
  tone = 'default',
  className,
  children,
  failed,
}: {
  icon: LucideIcon;
  label: string;
  value: number | undefined;
  tone?: 'default' | 'warning';
  className?: string;
  children?: ReactNode;
  /** Shown instead of the loading skeleton when the value could not be loaded. */
  failed?: ReactNode;
}) {
  return (
    <div
      className={cx(
        'rounded-2xl bg-white p-4 shadow-sm ring-1 sm:p-5',
        tone === 'warning' ? 'ring-amber-300' : 'ring-slate-200',
        className,
      )}
    >
      <dt className="flex items-center gap-2 text-sm font-medium text-slate-600">
        <Icon
          aria-hidden="true"
          className={cx('size-4', tone === 'warning' ? 'text-amber-600' : 'text-brand-600')}
        />
        {label}
      </dt>
      <dd className="mt-2 flex flex-col items-start">
        {value === undefined && failed ? (
          failed
        ) : value === undefined ? (
          <>
            <Skeleton className="h-9 w-14" />
            <span className="sr-only">Loading…</span>
          </>
        ) : (
          <span
            className={cx(
              'font-display text-3xl font-bold tracking-tight tabular-nums',
              tone === 'warning' ? 'text-amber-700' : 'text-slate-900',
            )}
          >
            {value}
          </span>
        )}
        {children}
      </dd>
    </div>
  );
}
