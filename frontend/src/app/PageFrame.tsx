import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BrandMark } from '../components/ui/BrandMark';
import { ButtonLink } from '../components/ui/Button';
import { paths } from '../config/paths';

/** Props of {@link PageFrame}. */
export interface PageFrameProps {
  /** The document title, without the product name. */
  title: string;
  /** Extra header items after the Home link, e.g. the credit badge and a sign-out button. */
  headerActions?: ReactNode;
  children: ReactNode;
}

/** A plain page: brand header with a way home, centred content, a short footer. For the simpler screens. */
export function PageFrame({ title, headerActions, children }: PageFrameProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${title} · Headshot Studio`}</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
          <Link
            to={paths.home.href}
            className="-m-1 flex items-center rounded-lg p-1"
            aria-label="Headshot Studio home"
          >
            <BrandMark />
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1 sm:gap-3">
            <ButtonLink to={paths.home.href} variant="ghost" size="sm">
              Home
            </ButtonLink>
            {headerActions}
          </nav>
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">{children}</main>
      <footer className="border-t border-slate-200 bg-white px-4 py-6 text-center text-sm text-slate-600">
        Headshot Studio: professional AI headshots from your selfies
      </footer>
    </div>
  );
}
