import { ArrowLeft, Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { LogoGlyph } from '../../../components/ui/BrandMark';
import { ButtonLink } from '../../../components/ui/Button';
import { CreditsBadge } from '../../../components/CreditsBadge';
import { SignOutButton } from '../../../components/SignOutButton';
import { paths } from '../../../config/paths';

/**
 * The dashboard's header (docs/product-spec.md §2): Back to Home, the credit count (links to /pricing), Generate New, and Sign out.
 * On phones Back to Home, Generate New and Sign out show as icons (their names stay for screen readers and as
 * tooltips) so everything fits from 360 px.
 */
export function DashboardHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur-md supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-3 min-[400px]:px-4 sm:px-6 lg:px-8">
        <div className="flex shrink-0 items-center gap-1 sm:gap-3">
          <ButtonLink
            to={paths.home.href}
            variant="ghost"
            size="sm"
            className="px-2.5 sm:px-3"
            title="Back to Home"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            <span className="sr-only md:not-sr-only">Back to Home</span>
          </ButtonLink>
          <span aria-hidden="true" className="hidden h-6 w-px bg-slate-200 md:block" />
          <Link
            to={paths.home.href}
            aria-label="Headshot Studio home"
            className="-m-1 hidden items-center gap-2.5 rounded-lg p-1 sm:flex"
          >
            <LogoGlyph className="size-8" />
            <span className="hidden font-display text-lg font-bold tracking-tight whitespace-nowrap text-slate-900 lg:inline">
              Headshot Studio
            </span>
          </Link>
        </div>
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
          <CreditsBadge className="px-3 sm:px-3.5" />
          <ButtonLink
            to={paths.generator.href}
            size="sm"
            className="px-2.5 min-[440px]:px-3 sm:px-4"
            title="Generate New"
          >
            <Plus aria-hidden="true" className="size-4" />
            <span className="sr-only min-[440px]:not-sr-only">Generate New</span>
          </ButtonLink>
          <SignOutButton className="px-2.5 sm:px-3" />
        </nav>
      </div>
    </header>
  );
}
