import { LoaderCircle } from 'lucide-react';
import { cx } from '../../lib/cx';

const sizes = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Announced to screen readers; `null` when the surrounding element already says what is loading. */
  label?: string | null;
  className?: string;
}

/** A spinning indicator for work in progress. */
export function Spinner({ size = 'md', label = 'Loading…', className }: SpinnerProps) {
  const icon = (
    <LoaderCircle
      aria-hidden="true"
      className={cx('animate-spin motion-reduce:animate-none', sizes[size], className)}
    />
  );
  if (label === null) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
