import { Button } from '../../../components/ui/Button';
import { AppHeader } from '../../../components/AppHeader';
import { Skeleton } from '../../../components/ui/Skeleton';
import { LazyCreditsBadge as CreditsBadge } from '../../../components/LazyCreditsBadge';
import { useAuth } from '../../../lib/auth';
import { scrollToSection } from '../utils/scroll-to-section';
import type { GetStartedOptions } from '../hooks/use-get-started';

/** Props of {@link TopBar}. */
export interface TopBarProps {
  /**
   * Swaps the account button's label: 'Sign Up' when signed out, 'Go to Dashboard' when signed in. Defaults to the
   * session's state ({@link useAuth}).
   */
  signedIn?: boolean;
  /** Called when the account button is pressed; asks for the Sign Up tab when signed out. */
  onAccountClick: (options?: GetStartedOptions) => void;
}

/**
 * The landing page's sticky top bar: brand, a Pricing link to the section below, the credit count when signed in
 * (from `sm` up) and the account button.
 */
export function TopBar({ signedIn, onAccountClick }: TopBarProps) {
  const { status } = useAuth();
  const isSignedIn = signedIn ?? status === 'signedIn';
  return (
    <AppHeader>
      <a
        href="#pricing"
        onClick={(event) => scrollToSection(event, 'pricing')}
        className="rounded-full px-1.5 py-2 text-sm min-[400px]:px-2.5 font-semibold text-slate-700 transition hover:bg-slate-100 hover:text-slate-900 sm:px-4"
      >
        Pricing
      </a>
      {status === 'signedIn' && (
        // Too wide for the smallest phones, where the dashboard shows it instead.
        <span className="hidden sm:block">
          <CreditsBadge />
        </span>
      )}
      {signedIn === undefined && status === 'loading' ? (
        // No 'Sign Up' flash for a signed-in visitor while the stored session is read: hold the place.
        <Skeleton className="h-8 w-32 rounded-full" />
      ) : (
        <Button
          size="sm"
          className="px-3 min-[400px]:px-3.5 sm:px-4"
          onClick={() => onAccountClick(isSignedIn ? undefined : { mode: 'signUp' })}
        >
          {isSignedIn ? 'Go to Dashboard' : 'Sign Up'}
        </Button>
      )}
    </AppHeader>
  );
}
