import { useState } from 'react';

/**
 * An async action and whether it is running, for a button that spins until its work ends (a download): `run`
 * starts `action` and settles as it does (its failure is the caller's to show); `pending` is true from the start
 * until the action has settled, whether it succeeded or failed.
 */
export function usePending(action: () => Promise<unknown>): { pending: boolean; run: () => Promise<void> } {
  const [pending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    try {
      await action();
    } finally {
      setPending(false);
    }
  };
  return { pending, run };
}
