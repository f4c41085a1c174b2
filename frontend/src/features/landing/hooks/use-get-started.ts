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
 * the dashboard when signed in; otherwise start sign-in, which comes back to the dashboard afterwards. While the
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
      // Also called straight from onClick (with an event); only a real `mode: 'signUp'` opens Sign Up.
      signIn(paths.dashboard.href, { mode: options?.mode === 'signUp' ? 'signUp' : 'signIn' });
    },
    [navigate, signIn, status],
  );
}
