import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from '../../../lib/cx';

/** Props of {@link LandingSection}: the section's own spacing and colours, and any attribute of the element. */
export interface LandingSectionProps extends Omit<HTMLAttributes<HTMLElement>, 'aria-labelledby'> {
  /** The id of the section's heading, which labels it. */
  titleId: string;
  /** Padding, background and the `--rendered-height` the section reserves before it is laid out. */
  className: string;
  /** Put the children in the page's column (default); `false` for a section that lays out its own width. */
  column?: boolean;
  children: ReactNode;
}

/**
 * A landing page section in the page's column: laid out only near the viewport (`render-when-near`, decision 013),
 * labelled by its heading.
 */
export function LandingSection({
  titleId,
  className,
  column = true,
  children,
  ...rest
}: LandingSectionProps) {
  return (
    <section aria-labelledby={titleId} className={cx('render-when-near', className)} {...rest}>
      {column ? <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">{children}</div> : children}
    </section>
  );
}
