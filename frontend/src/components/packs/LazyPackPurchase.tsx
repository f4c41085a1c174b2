import { lazy, Suspense } from 'react';
import type { StartCheckoutOptions } from '../../hooks/use-start-checkout';
import { CheckoutTermsNote } from '../LegalLinks';
import { PackGridSkeleton } from './PackGridSkeleton';

const PackPurchase = lazy(() => import('./PackPurchase'));

/**
 * The credit packs and their checkout, in a chunk of their own: the pack list's validation (zod) and the checkout
 * flow stay out of the first page's JavaScript. The landing and pricing pages arrive as HTML rendered at build
 * time, which stays on screen (and its buttons answer once hydrated) while this chunk loads; on an in-app
 * navigation the grid's skeleton shows meanwhile. Under the packs, the note that buying accepts the Terms and the
 * Refund Policy, linked.
 */
export function LazyPackPurchase(props: Pick<StartCheckoutOptions, 'returnTo'>) {
  return (
    <>
      <Suspense fallback={<PackGridSkeleton />}>
        <PackPurchase {...props} />
      </Suspense>
      {/* Where a purchase starts: the terms it accepts are one tap away before the hosted checkout opens. */}
      <CheckoutTermsNote />
    </>
  );
}
