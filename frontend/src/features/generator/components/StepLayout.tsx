import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from '../../../lib/cx';

/** Props of {@link StepHeading}. */
export interface StepHeadingProps {
  /** The heading's id, for the step section's `aria-labelledby`. */
  id: string;
  title: string;
  /** The sentence under the title. */
  children?: ReactNode;
}

/**
 * A step's title (the page's `h1`) and its one-line explanation. The heading takes focus when a step opens, so
 * keyboard and screen-reader users start at the new step's top.
 */
export function StepHeading({ id, title, children }: StepHeadingProps) {
  return (
    <div className="text-center sm:text-left">
      <h1
        id={id}
        tabIndex={-1}
        className="font-display text-2xl font-bold tracking-tight text-balance text-slate-900 outline-none sm:text-3xl"
      >
        {title}
      </h1>
      {children && <p className="mt-2 text-base text-pretty text-slate-600">{children}</p>}
    </div>
  );
}

const RESULT_TONES = {
  ready: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  stopped: 'bg-amber-50 text-amber-600 ring-amber-100',
} as const;

/** Props of {@link ResultHeading}. */
export interface ResultHeadingProps {
  icon: LucideIcon;
  /** `ready`: headshots delivered (green); `stopped`: the likeness cap stopped it (amber). */
  tone: keyof typeof RESULT_TONES;
  /** `lg` for 'Your headshots are ready!', `md` otherwise. */
  size?: 'md' | 'lg';
  children: ReactNode;
}

/**
 * Step 4's result title: the round icon and the page's `h1` (`generation-title`, which the step section is labelled
 * by and which takes focus like every step's title).
 */
export function ResultHeading({ icon: Icon, tone, size = 'md', children }: ResultHeadingProps) {
  return (
    <>
      <span
        className={cx(
          'mx-auto flex size-14 items-center justify-center rounded-2xl ring-1',
          RESULT_TONES[tone],
        )}
      >
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h1
        id="generation-title"
        tabIndex={-1}
        className={cx(
          'mt-5 font-display text-2xl font-bold tracking-tight text-slate-900 outline-none',
          size === 'lg' ? 'sm:text-4xl' : 'sm:text-3xl',
        )}
      >
        {children}
      </h1>
    </>
  );
}

/** Props of {@link StepFooter}. */
export interface StepFooterProps {
  /** A short line saying why the main action is unavailable, or nothing. */
  hint?: string;
  /** The step's main action(s), at the right. */
  children: ReactNode;
}

/** The row under a step with its main action (Continue, Generate) and, when useful, why it is disabled. */
export function StepFooter({ hint, children }: StepFooterProps) {
  return (
    <div className="mt-10 flex flex-col-reverse items-stretch gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-center sm:justify-end sm:gap-5">
      {hint && <p className="text-center text-sm text-slate-500 sm:text-right">{hint}</p>}
      {children}
    </div>
  );
}
