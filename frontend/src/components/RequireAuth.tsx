import { useEffect, type ReactNode } from 'react';
import { LogoGlyph } from './ui/BrandMark';
import { Spinner } from './ui/Spinner';
import { useAuth } from '../lib/auth/auth-context';

/** Props of {@link RequireAuth}. */
export interface RequireAuthProps {
  /** The protected screen, rendered only when signed in. */
  children: ReactNode;
}

/**
 * Guards a protected route (docs/product-spec.md §2): a spinner while authentication loads; signed out, the message
 * 'Redirecting to sign in...' while it sends the visitor to `/signin?returnTo=<this page>` (replacing the history
 * entry, so Back does not bounce); signed in, the screen itself.
 */
export function RequireAuth({ children }: RequireAuthProps) {
  const { status, signIn } = useAuth();

  useEffect(() => {
    if (status === 'signedOut') signIn(undefined, { replace: true });
  }, [status, signIn]);

  if (status === 'signedIn') return children;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-5 bg-slate-50 px-4 text-center">
      <LogoGlyph className="size-12" />
      {status === 'loading' ? (
        <Spinner className="text-brand-600" label="Checking your account…" />
      ) : (
        <div role="status" className="flex items-center gap-3 text-base font-medium text-slate-700">
          <Spinner className="text-brand-600" size="sm" label={null} />
          Redirecting to sign in...
        </div>
      )}
    </div>
  );
}
