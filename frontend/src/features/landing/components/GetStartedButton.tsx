import { NavigationButton, type NavigationButtonProps } from '../../../components/ui/NavigationButton';
import { signInPath } from '../../../lib/auth';
import { paths } from '../../../config/paths';
import { useGetStarted, type GetStartedOptions } from '../hooks/use-get-started';

/**
 * Where a landing call to action goes before the app has loaded: Create Account, coming back to the dashboard. That
 * is what the app does for a new visitor, the only kind the page can know of without its script (a signed-in one is
 * sent on from /signin to the dashboard).
 */
export const GET_STARTED_HREF = signInPath({ returnTo: paths.dashboard.href, mode: 'signUp' });

/** Props of {@link GetStartedButton}. */
export interface GetStartedButtonProps extends Omit<NavigationButtonProps, 'href' | 'onClick'> {
  /** 'signUp' for the Sign Up button: Create Account even for a browser signed in before. */
  mode?: GetStartedOptions['mode'];
}

/**
 * A call to action of the landing page ('Sign Up', 'Create your headshots now', 'Get started now'): works before the
 * app has loaded ({@link NavigationButton}), then does what {@link useGetStarted} decides. It reads the session
 * itself, so the session settling re-renders this button, not the whole landing page.
 */
export function GetStartedButton({ mode, ...props }: GetStartedButtonProps) {
  const getStarted = useGetStarted();
  return (
    <NavigationButton
      href={GET_STARTED_HREF}
      onClick={() => getStarted(mode ? { mode } : undefined)}
      {...props}
    />
  );
}
