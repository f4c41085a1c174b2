import type { ReactNode } from 'react';
import { cx } from '../lib/cx';
import { HomeBrandLink } from './HomeBrandLink';

/** Props of {@link AppHeader}. */
export interface AppHeaderProps {
  /** Controls before the brand, e.g. Back; a divider separates them from it from `sm` up. */
  leading?: ReactNode;
  /** The navigation on the right (links, the credit count, sign-out). */
  children?: ReactNode;
  /** The accessible name of that navigation, e.g. 'Main' or 'Account'. */
  navLabel?: string;
  /** Classes of the product name next to the logo: hide it where the row is tight (`hidden md:inline`). */
  nameClassName?: string;
  /** `wide` (7xl) for pages with a grid, `narrow` (6xl) for the wizard. */
  width?: 'wide' | 'narrow';
  /** A second row inside the header, e.g. the wizard's step indicator. */
  below?: ReactNode;
  /** Stays on top while the page scrolls (default); the simple frames scroll it away. */
  sticky?: boolean;
}

/**
 * The one header shell of every screen (docs/product-spec.md §2 lists each screen's header items): the brand,
 * linking home, with optional controls before it and a navigation after it, in a translucent bar that stays on top.
 * Every row fits from 360 px: pages pass compact items (icons with screen-reader names) for phones.
 */
export function AppHeader({
  leading,
  children,
  navLabel = 'Main',
  nameClassName,
  width = 'wide',
  below,
  sticky = true,
}: AppHeaderProps) {
  const container = cx(
    'mx-auto px-3 min-[400px]:px-4 sm:px-6 lg:px-8',
    width === 'wide' ? 'max-w-7xl' : 'max-w-6xl',
  );
  return (
    <header
      className={cx(
        'z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur-md supports-[backdrop-filter]:bg-white/75',
        sticky && 'sticky top-0',
      )}
    >
      <div className={cx(container, 'flex h-16 items-center justify-between gap-2')}>
        <div className="flex min-w-0 items-center gap-1 sm:gap-3">
          {leading && (
            <>
              {leading}
              <span aria-hidden="true" className="hidden h-6 w-px bg-slate-200 sm:block" />
            </>
          )}
          <HomeBrandLink className="-m-1 flex items-center rounded-lg p-1" nameClassName={nameClassName} />
        </div>
        {children && (
          <nav aria-label={navLabel} className="flex items-center gap-0.5 min-[400px]:gap-1 sm:gap-2">
            {children}
          </nav>
        )}
      </div>
      {below && <div className={cx(container, 'pb-4')}>{below}</div>}
    </header>
  );
}
