import { cx } from '../../lib/cx';

/** A grey placeholder block shown where content is still loading. Purely decorative. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cx('animate-pulse rounded-md bg-slate-200 motion-reduce:animate-none', className)}
    />
  );
}
