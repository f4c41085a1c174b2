import type { ReactNode } from 'react';

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
