import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth';
import { paths } from '../../../config/paths';

/** Options of the function {@link useGetStarted} returns. */
export interface GetStartedOptions {
  /** For signed-out visitors: open the Sign Up tab ('Sign Up' button) instead of Sign In. */
  mode?: 'signIn' | 'signUp';
}

/**
 * What the landing page's calls to action do ('Sign Up', 'Create your headshots now', 'Get started now'): go to
 * the dashboard when signed in; otherwise start sign-in on Create Account for a new visitor (Sign In for a browser
 * signed in before), which comes back to the dashboard afterwards. While the
 * session is still loading, signed-out behaviour is the safe choice: /signin sends a signed-in user on at once.
 * Kept in one hook so every button changes together.
 */
export function useGetStarted(): (options?: GetStartedOptions) => void {
  const navigate = useNavigate();
  const { status, signIn } = useAuth();
  return useCallback(
    (options?: GetStartedOptions) => {
      if (status === 'signedIn') {
        void navigate(paths.dashboard.href);
        return;
      }
      // Also called straight from onClick (with an event); only a real `mode: 'signUp'` is taken as one. Without it
      // sign-in picks: Create Account for a new visitor, Sign In for a browser signed in before (lib/auth).
      signIn(paths.dashboard.href, options?.mode === 'signUp' ? { mode: 'signUp' } : {});
    },
    [navigate, signIn, status],
  );
}
