import { ArrowLeft, House, LayoutDashboard, Mail, type LucideIcon } from 'lucide-react';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { AppHeader } from './AppHeader';
import { LegalLinks } from './LegalLinks';
import { ButtonLink } from './ui/Button';
import { NavigationButton } from './ui/NavigationButton';
import { useRuntimeConfig } from '../lib/runtime-config-context';
import { LazyCreditsBadge as CreditsBadge } from './LazyCreditsBadge';
import { useAuth } from '../lib/auth';
import { copyrightHolder } from '../config/legal-entity';
import { paths } from '../config/paths';

/** Where Back goes when the pricing page was the first screen of this visit (signed in; signed out: the landing). */
export const BACK_FALLBACK = paths.dashboard.href;

/**
 * Back as the pricing page means it (docs/product-spec.md §2): one step back in history when the previous entry is a screen of
 * this app, else to /dashboard. React Router marks the first entry of a visit with the key `'default'`, so a
 * visitor who arrived from outside (a link, a bookmark, the payment provider's Cancel) is never sent off-site.
 */
export function useBack(fallback: string = BACK_FALLBACK): () => void {
  const navigate = useNavigate();
  const { key } = useLocation();
  const hasAppHistory = key !== 'default';
  return useCallback(() => {
    if (hasAppHistory) void navigate(-1);
    else void navigate(fallback);
  }, [fallback, hasAppHistory, navigate]);
}

/** Props of {@link PricingHeader}. */
export interface PricingHeaderProps {
  /** Show the Back button (the pricing page has one; the payment result page does not). Default true. */
  showBack?: boolean;
}

/**
 * The header of the pricing and payment result pages (docs/product-spec.md §2): Back (history back, else /dashboard
 * when signed in and / when signed out), the brand, Home and, when signed in, Dashboard and the user's credit
 * count. On phones Home and Dashboard show as icons (their names stay for screen readers)
 * so everything fits from 360 px.
 */
export function PricingHeader({ showBack = true }: PricingHeaderProps) {
  const signedIn = useAuth().status === 'signedIn';
  // A signed-out visitor's fallback is the landing page: /dashboard would only bounce them to sign-in (issue 27).
  const back = useBack(signedIn ? BACK_FALLBACK : paths.home.href);
  return (
    <AppHeader
      nameClassName={showBack ? 'hidden md:inline' : 'hidden min-[480px]:inline'}
      leading={
        showBack && (
          // Before the app has loaded (a page rendered at build time, where nobody is signed in yet) it goes home.
          <NavigationButton
            href={signedIn ? BACK_FALLBACK : paths.home.href}
            variant="ghost"
            size="sm"
            className="px-2.5 sm:px-3"
            onClick={back}
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back
          </NavigationButton>
        )
      }
    >
      <NavLink to={paths.home.href} icon={House} label="Home" compact={signedIn} />
      {/* Signed out, the dashboard would only send the visitor to sign in (issue 35): it is not offered. */}
      {signedIn && (
        <NavLink to={paths.dashboard.href} icon={LayoutDashboard} label="Dashboard" compact={signedIn} />
      )}
      {signedIn && <CreditsBadge className="ml-1 px-3 sm:ml-0 sm:px-3.5" />}
    </AppHeader>
  );
}

/**
 * A header link. `compact` (when the credit count needs the room) shows only the icon on phones; the label stays
 * for screen readers and as a tooltip.
 */
function NavLink({
  to,
  icon: Icon,
  label,
  compact,
}: {
  to: string;
  icon: LucideIcon;
  label: string;
  compact: boolean;
}) {
  return (
    <ButtonLink
      to={to}
      variant="ghost"
      size="sm"
      className={compact ? 'px-2.5 sm:px-4' : 'px-3 sm:px-4'}
      title={label}
    >
      {compact && <Icon aria-hidden="true" className="size-4 sm:hidden" />}
      <span className={compact ? 'sr-only sm:not-sr-only' : undefined}>{label}</span>
    </ButtonLink>
  );
}

// Read once: a page left open over New Year showing last year's © is harmless.
const YEAR = new Date().getFullYear();

/**
 * The footer of the pricing, payment result and legal pages: copyright (the company, when the runtime config names
 * one), the legal pages and the support e-mail from the runtime config.
 */
export function PricingFooter() {
  const { supportEmail, legalEntity } = useRuntimeConfig();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 lg:flex-row lg:px-8">
        <p>
          © {YEAR} {copyrightHolder(legalEntity)}
        </p>
        <nav aria-label="Legal">
          <LegalLinks
            className="flex flex-wrap justify-center gap-x-5 gap-y-2"
            linkClassName="rounded hover:text-slate-900 hover:underline"
          />
        </nav>
        <p className="flex items-center gap-2">
          <Mail aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
          <span>
            Questions?{' '}
            <a
              href={`mailto:${supportEmail}`}
              className="rounded font-medium text-brand-700 [overflow-wrap:anywhere] hover:text-brand-800"
            >
              {supportEmail}
            </a>
          </span>
        </p>
      </div>
    </footer>
  );
}
