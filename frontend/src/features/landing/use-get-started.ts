import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * What the landing page's calls to action do ('Sign Up', 'Create your headshots now', 'Get started now'): go to the
 * dashboard. Kept in one hook because the accounts feature makes it start sign-in for signed-out visitors, and
 * every button must change together.
 */
export function useGetStarted(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    void navigate('/dashboard');
  }, [navigate]);
}
