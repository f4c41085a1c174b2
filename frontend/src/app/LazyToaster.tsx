import { lazy, Suspense, useSyncExternalStore } from 'react';
import { OFFLINE_BANNER_LIFT } from '../components/OfflineBanner';
import { useOnline } from '../hooks/use-online';

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

const subscribeToNothing = () => () => undefined;

/** sonner's own phone layout (full-width toasts) starts at this width; ours follows it. */
const PHONE = '(max-width: 600px)';

function subscribeToPhone(onChange: () => void): () => void {
  const query = window.matchMedia?.(PHONE);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}
const isPhone = () => window.matchMedia?.(PHONE).matches ?? false;

/**
 * Where the toasts sit: never over navigation (issue 35 item 4). On a phone sonner spreads a top toast over the
 * whole header (Back, the brand, the credits), so phone toasts stand at the bottom, where no screen keeps a control,
 * and above the offline banner while it shows. On wider screens they stay top-right (docs/product-spec.md §9), below
 * the 4 rem header instead of over its right-hand navigation.
 */
export function toasterPlacement(phone: boolean, online: boolean) {
  return {
    position: phone ? ('bottom-center' as const) : ('top-right' as const),
    offset: { top: 'calc(4rem + 16px)', right: 24 },
    mobileOffset: { bottom: online ? 16 : `calc(${OFFLINE_BANNER_LIFT} + 8px)`, left: 16, right: 16 },
  };
}

/**
 * The toaster (docs/product-spec.md §9: 4 s, at most 3 visible; placed by {@link toasterPlacement}), loaded after
 * the first render: toasts only follow something the visitor did, so sonner stays out of the first page's
 * JavaScript and out of the HTML rendered at build time (a hydrating page renders it only once hydrated, as the
 * server snapshot says `false`).
 */
export function LazyToaster() {
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const phone = useSyncExternalStore(subscribeToPhone, isPhone, () => false);
  const online = useOnline();
  if (!inBrowser) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        {...toasterPlacement(phone, online)}
        duration={4000}
        visibleToasts={3}
        richColors
        closeButton
      />
    </Suspense>
  );
}
