import { Star } from 'lucide-react';
import { cx } from '../../lib/cx';

/** Props of {@link StarRating}. */
export interface StarRatingProps {
  /** Filled stars, 0-5; fractions round to the nearest whole star. */
  value: number;
  className?: string;
}

/** Five stars, the first `value` filled, read out as "N out of 5 stars". */
export function StarRating({ value, className }: StarRatingProps) {
  const filled = Math.round(Math.min(5, Math.max(0, value)));
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className={cx('inline-flex gap-0.5', className)}>
      {Array.from({ length: 5 }, (_, i) => (
        <Star
          key={i}
          aria-hidden="true"
          className={cx(
            'size-4',
            i < filled ? 'fill-amber-400 text-amber-400' : 'fill-slate-200 text-slate-200',
          )}
        />
      ))}
    </span>
  );
}
