import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { ApiError } from '../lib/api-client';
import { track } from '../lib/analytics';
import { signInPath, useAuth } from '../lib/auth';
import type { Pack, PackId } from '../lib/api/get-packs';
import { createCheckoutSession, newIdempotencyKey } from '../lib/api/create-checkout-session';
import { redirectTo } from '../lib/redirect';
import { rememberCheckoutPack } from '../lib/checkout-return';
import { paths } from '../config/paths';

/** The user-facing messages of starting a purchase (docs/product-spec.md §5, §8), verbatim. */
export const START_CHECKOUT_MESSAGES = {
  signInRequired: 'Please sign in to purchase credits',
  redirecting: 'Redirecting to secure checkout...',
  failed: 'Failed to initiate purchase. Please try again.',
} as const;

/** Where a visitor comes back to after signing in to buy, by default. */
const RETURN_TO = paths.pricing.href;

/** The query parameter that resumes a purchase after sign-in: `?buy=<packId>`. */
export const RESUME_PARAM = 'buy';
const PACK_IDS: readonly string[] = ['starter', 'popular', 'pro'];

/**
 * Where a pack's buy button goes before the app has loaded (issue 27): Create Account (the page cannot know a visitor
 * without its script, and a new one is the likely one; a signed-in visitor is sent on from there), coming back to
 * `returnTo(packId)` or else `/pricing?buy=<packId>`: either way a page where the purchase the visitor tapped resumes
 * once signed in.
 */
export function signInToBuyHref(packId: PackId, returnTo?: StartCheckoutOptions['returnTo']): string {
  const back = returnTo
    ? returnTo(packId)
    : `${RETURN_TO}?${new URLSearchParams({ [RESUME_PARAM]: packId })}`;
  return signInPath({ returnTo: back, mode: 'signUp' });
}

/** Options of {@link useStartCheckout}. */
export interface StartCheckoutOptions {
  /**
   * Where sign-in comes back to when a signed-out visitor picks `packId` (default `/pricing`). A path with
   * `?buy=<packId>` resumes the purchase on arrival, once signed in.
   */
  returnTo?: (packId: PackId) => string;
}

/** What {@link useStartCheckout} returns. */
export interface StartCheckout {
  /** Starts buying `pack`. Ignored while another purchase is starting. */
  start: (pack: Pick<Pack, 'id'>) => Promise<void>;
  /** The pack whose purchase is starting (until the browser leaves for checkout), else `null`. */
  pendingPackId: PackId | null;
}

/**
 * Buying a credit pack from the pricing page (docs/product-spec.md §2, §5, §8):
 * - signed out: info toast 'Please sign in to purchase credits' and sign-in, coming back to /pricing;
 * - signed in: creates a Checkout Session (fresh `Idempotency-Key` per click), toasts 'Redirecting to secure
 *   checkout...' and sends THIS tab to the hosted page (a tab opened after an `await` is blocked by popup
 *   blockers, so the spec's new tab is deliberately not used);
 * - failure: toast 'Failed to initiate purchase. Please try again.'; a 401 (session gone) is treated as signed out.
 *
 * `pendingPackId` stays set until the page unloads, so the button keeps reading 'Processing...' while the browser
 * leaves; coming back with the Back button (page restored from the back/forward cache) clears it.
 */
export function useStartCheckout(options: StartCheckoutOptions = {}): StartCheckout {
  const { status, signIn } = useAuth();
  const returnTo = options.returnTo;
  const [pendingPackId, setPendingPackId] = useState<PackId | null>(null);
  // A ref, not the state: two clicks in the same tick must not both start a purchase.
  const busy = useRef(false);

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      busy.current = false;
      setPendingPackId(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const askToSignIn = useCallback(
    (packId: PackId) => {
      toast.info(START_CHECKOUT_MESSAGES.signInRequired);
      signIn(returnTo ? returnTo(packId) : RETURN_TO);
    },
    [signIn, returnTo],
  );

  const start = useCallback(
    async (pack: Pick<Pack, 'id'>) => {
      if (busy.current) return;
      // While the session is still loading, try anyway: the API call carries the token if there is one.
      if (status === 'signedOut') {
        askToSignIn(pack.id);
        return;
      }
      busy.current = true;
      setPendingPackId(pack.id);
      try {
        const { url } = await createCheckoutSession(pack.id, newIdempotencyKey());
        // Sent by the page-hide beacon as this tab leaves for checkout.
        track('checkout_started', { packId: pack.id });
        rememberCheckoutPack(pack.id);
        toast.success(START_CHECKOUT_MESSAGES.redirecting);
        redirectTo(url);
      } catch (error) {
        busy.current = false;
        setPendingPackId(null);
        if (error instanceof ApiError && error.status === 401) {
          askToSignIn(pack.id);
          return;
        }
        console.error('Starting checkout failed:', error);
        toast.error(START_CHECKOUT_MESSAGES.failed);
      }
    },
    [askToSignIn, status],
  );

  // Back from sign-in with `?buy=<packId>`: the purchase the visitor asked for starts by itself, once.
  const [params, setParams] = useSearchParams();
  const resumeId = params.get(RESUME_PARAM);
  useEffect(() => {
    if (!resumeId || status !== 'signedIn') return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(RESUME_PARAM);
        return next;
      },
      { replace: true },
    );
    // The purchase this page was asked to resume; starting it sets 'Processing...' at once, by design.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (PACK_IDS.includes(resumeId)) void start({ id: resumeId as PackId });
  }, [resumeId, status, setParams, start]);

  return { start, pendingPackId };
}
