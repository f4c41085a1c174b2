import type { ReactNode } from 'react';
import { AppHeader } from '../components/AppHeader';
import { LegalLinks } from '../components/LegalLinks';
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
      <AppHeader sticky={false}>
        <ButtonLink to={paths.home.href} variant="ghost" size="sm">
          Home
        </ButtonLink>
        {headerActions}
      </AppHeader>
      <main className="flex flex-1 items-center justify-center px-4 py-16 sm:px-6">{children}</main>
      <footer className="border-t border-slate-200 bg-white px-4 py-6 text-center text-sm text-slate-600">
        <p>Headshot Studio: professional AI headshots from your selfies</p>
        <nav aria-label="Legal" className="mt-3">
          <LegalLinks
            className="flex flex-wrap justify-center gap-x-5 gap-y-2"
            linkClassName="rounded hover:text-slate-900 hover:underline"
          />
        </nav>
      </footer>
    </div>
  );
}
