import { cx } from '../../lib/cx';

/** Props of {@link ProgressBar}. */
export interface ProgressBarProps {
  /** The bar's accessible name, e.g. 'Generation progress'. */
  label: string;
  /** How full the bar is, 0-100. */
  percent: number;
  /** The value screen readers announce, in the bar's own units (a step); default: the percent. */
  value?: number;
  /** The scale of `value`; default 0-100 (a percent). */
  min?: number;
  max?: number;
  /** What the value means, read instead of the number ('Step 2 of 4'); default: `<percent>%`. */
  valueText?: string;
  /** `sm` (8 px) in a header, `md` (12 px) in a card. */
  size?: 'sm' | 'md';
}

/** An accessible progress bar on the brand gradient (a percent unless told otherwise); the fill eases to each new value. */
export function ProgressBar({
  label,
  percent,
  value = percent,
  min = 0,
  max = 100,
  valueText = `${percent}%`,
  size = 'sm',
}: ProgressBarProps) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className={cx('mt-2 overflow-hidden rounded-full bg-slate-100', size === 'sm' ? 'h-2' : 'h-3')}
    >
      <div
        className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-600 transition-[width] duration-500 ease-out motion-reduce:transition-none"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
