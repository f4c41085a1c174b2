import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from './ui/Button';
import type { ButtonSize, ButtonVariant } from './ui/button-styles';
import { useAuth } from '../lib/auth/auth-context';
import { paths } from '../config/paths';

/** Props of {@link SignOutButton}. */
export interface SignOutButtonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/**
 * 'Sign out': goes to the landing page, then signs out and confirms with a toast. Leaving first keeps a
 * protected screen from redirecting to the sign-in form the moment the session ends.
 */
export function SignOutButton({ variant = 'ghost', size = 'sm', className }: SignOutButtonProps) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const handleClick = async () => {
    setBusy(true);
    // Commit the new screen before the session ends, or the protected screen would start sign-in first.
    await navigate(paths.home.href, { flushSync: true });
    await signOut();
    toast.success('You have been signed out.');
  };

  return (
    <Button variant={variant} size={size} className={className} loading={busy} onClick={handleClick}>
      {!busy && <LogOut aria-hidden="true" className="size-4" />}
      {/* Icon-only on phones, where the header is tight; the name stays 'Sign out' for everyone. */}
      <span className="sr-only sm:not-sr-only">Sign out</span>
    </Button>
  );
}
