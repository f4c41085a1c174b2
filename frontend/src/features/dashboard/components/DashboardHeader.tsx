import { ArrowLeft, Plus } from 'lucide-react';
import { AppHeader } from '../../../components/AppHeader';
import { CreditsBadge } from '../../../components/CreditsBadge';
import { SignOutButton } from '../../../components/SignOutButton';
import { ButtonLink } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';

/**
 * The dashboard's header (docs/product-spec.md §2): Back to Home, the credit count (links to /pricing), Generate
 * New, and Sign out. On phones Back to Home, Generate New and Sign out show as icons (their names stay for screen
 * readers and as tooltips) so everything fits from 360 px.
 */
export function DashboardHeader() {
  return (
    <AppHeader
      navLabel="Account"
      nameClassName="hidden lg:inline"
      leading={
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
      }
    >
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
    </AppHeader>
  );
}
