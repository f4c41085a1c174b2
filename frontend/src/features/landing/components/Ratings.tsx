import { StarRating } from '../../../components/ui/StarRating';
import { cx } from '../../../lib/cx';
import { RATINGS } from '../utils/content';

/** The two marketing ratings, 4.9/5 and 4.8/5, each with stars and a label. */
export function Ratings({ className, tone = 'light' }: { className?: string; tone?: 'light' | 'card' }) {
  return (
    <dl className={cx('flex flex-wrap gap-x-6 gap-y-4 sm:gap-x-8', className)}>
      {RATINGS.map((rating) => (
        <div
          key={rating.value}
          className={cx(
            'flex flex-col gap-1',
            tone === 'card' && 'rounded-2xl bg-white px-6 py-5 shadow-sm ring-1 ring-slate-200',
          )}
        >
          <dt className="order-2 text-sm text-slate-600">{rating.label}</dt>
          <dd className="order-1 flex items-center gap-2">
            <span className="text-2xl font-bold tracking-tight text-slate-900">{rating.value}</span>
            <StarRating value={rating.stars} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
