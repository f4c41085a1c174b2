import { AppHeader } from '../../../components/AppHeader';
import { LazyCreditsBadge as CreditsBadge } from '../../../components/LazyCreditsBadge';
import { NavigationButton } from '../../../components/ui/NavigationButton';
import { useAuth } from '../../../lib/auth';
import { paths } from '../../../config/paths';
import { scrollToSection } from '../utils/scroll-to-section';
import { useGetStarted } from '../hooks/use-get-started';
import { GetStartedButton } from './GetStartedButton';

/** Props of {@link TopBar}. */
export interface TopBarProps {
  /**
   * Swaps the account button: 'Sign Up' when signed out, 'Go to Dashboard' when signed in. Defaults to the
   * session's state ({@link useAuth}); while it is still being read, 'Sign Up'.
   */
  signedIn?: boolean;
}

const ACCOUNT_BUTTON_CLASSES = 'px-3 min-[400px]:px-3.5 sm:px-4';

/**
 * The landing page's sticky top bar: brand, a Pricing link to the section below, the credit count when signed in
 * (from `sm` up) and the account button. 'Sign Up' is in the HTML rendered at build time and works before the app has
 * loaded (issue 27); a signed-in visitor sees it until the stored session has been read, and tapping it then still
 * ends on the dashboard (/signin sends a signed-in user on).
 */
export function TopBar({ signedIn }: TopBarProps) {
  const { status } = useAuth();
  const getStarted = useGetStarted();
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
      {isSignedIn ? (
        <NavigationButton
          href={paths.dashboard.href}
          size="sm"
          className={ACCOUNT_BUTTON_CLASSES}
          onClick={() => getStarted()}
        >
          Go to Dashboard
        </NavigationButton>
      ) : (
        <GetStartedButton mode="signUp" size="sm" className={ACCOUNT_BUTTON_CLASSES}>
          Sign Up
        </GetStartedButton>
      )}
    </AppHeader>
  );
}
