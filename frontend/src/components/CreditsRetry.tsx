import { RefreshCw } from 'lucide-react';
import { cx } from '../lib/cx';

/**
 * Shown where the credit balance goes when `GET /api/me` failed: says so and offers to load it again, instead of a
 * skeleton that never ends.
 */
export function CreditsRetry({
  onRetry,
  retrying = false,
  className,
}: {
  onRetry: () => void;
  retrying?: boolean;
  className?: string;
}) {
  return (
    <span role="alert" className={cx('flex flex-wrap items-center gap-2 text-sm text-slate-600', className)}>
      Couldn&apos;t load your credits.
      <button
        type="button"
        onClick={onRetry}
        disabled={retrying}
        className="inline-flex items-center gap-1 rounded-full px-2 py-1 font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 disabled:opacity-60"
      >
        <RefreshCw aria-hidden="true" className={cx('size-3.5', retrying && 'animate-spin')} />
        Retry
      </button>
    </span>
  );
}
