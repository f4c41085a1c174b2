import type { ReactNode } from 'react';
import { cx } from '../lib/cx';
import { ProgressBar } from './ui/ProgressBar';

/** Props of {@link GenerationProgressBar}. */
export interface GenerationProgressBarProps {
  /** 0-100 (hooks/use-generation-progress). */
  percent: number;
  /** What stands left of the percent: the status text (wizard) or the card's title (dashboard). */
  label: ReactNode;
  /** What screen readers hear for the bar's value; default: the percent. */
  valueText?: string;
  /** `sm` in the dashboard's card, `md` in the wizard's progress card. */
  size?: 'sm' | 'md';
  className?: string;
}

/**
 * A running generation's progress as the wizard's step 4 and the dashboard show it: a line with `label` and the
 * percent, and the 'Generation progress' bar below it.
 */
export function GenerationProgressBar({
  percent,
  label,
  valueText,
  size = 'sm',
  className,
}: GenerationProgressBarProps) {
  return (
    <div className={className}>
      <div className={cx('flex items-baseline justify-between gap-3', size === 'md' && 'text-sm')}>
        {label}
        <p className="text-sm font-semibold text-brand-700 tabular-nums" data-testid="generation-percent">
          {percent}%
        </p>
      </div>
      <ProgressBar label="Generation progress" percent={percent} valueText={valueText} size={size} />
    </div>
  );
}
