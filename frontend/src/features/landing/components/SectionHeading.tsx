import type { ReactNode } from 'react';
import { cx } from '../../../lib/cx';

/** Props of {@link SectionHeading}. */
export interface SectionHeadingProps {
  /** The heading's id, which the section's `aria-labelledby` names. */
  id: string;
  /** The small brand-coloured line above the heading ('How it works'). */
  eyebrow: string;
  title: ReactNode;
  /** The sentence under the heading, if any. */
  children?: ReactNode;
  /** Extra classes of that sentence (e.g. centring it in a wider column). */
  introClassName?: string;
}

/** A landing section's eyebrow, heading and intro sentence, in the one type scale all sections use. */
export function SectionHeading({ id, eyebrow, title, children, introClassName }: SectionHeadingProps) {
  return (
    <>
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
      <h2
        id={id}
        className="mt-2 font-display text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl"
      >
        {title}
      </h2>
      {children && <p className={cx('mt-4 text-pretty text-slate-600', introClassName)}>{children}</p>}
    </>
  );
}
