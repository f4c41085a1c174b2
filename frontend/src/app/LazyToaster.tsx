import { lazy, Suspense, useSyncExternalStore } from 'react';

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

const subscribeToNothing = () => () => undefined;

/** The header's height when it cannot be measured (before the app renders, in jsdom): AppHeader's 4 rem row. */
const HEADER_FALLBACK_PX = 64;

/** Calls `onChange` when the page's layout may have moved the header: the page resized or its content changed. */
function subscribeToLayout(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(onChange);
  observer?.observe(document.body);
  return () => {
    window.removeEventListener('resize', onChange);
    observer?.disconnect();
  };
}

/** Where the page's first header ends, in px from the top of the viewport (0 once it has scrolled away). */
function headerBottomNow(): number {
  const header = document.querySelector('header');
  if (!header) return HEADER_FALLBACK_PX;
  return Math.max(0, Math.round(header.getBoundingClientRect().bottom));
}

/**
 * Where the toasts sit: below the header, never over navigation (issue 35 item 4). On a phone sonner spreads a
 * top toast over the whole width, so at its default 16 px it covered the header (Back, the brand, the credits); the
 * bottom is no better, where step 1's Continue and step 3's Generate are. So toasts start under the header as
 * measured (the wizard's has a second row, the step indicator): top-right on wider screens (docs/product-spec.md §9),
 * full width on a phone (sonner's layout up to 600 px).
 *
 * @param headerBottom where the header ends, px from the top of the viewport
 */
export function toasterPlacement(headerBottom: number) {
  return {
    position: 'top-right' as const,
    offset: { top: headerBottom + 16, right: 24 },
    mobileOffset: { top: headerBottom + 8, left: 16, right: 16 },
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
  const headerBottom = useSyncExternalStore(subscribeToLayout, headerBottomNow, () => HEADER_FALLBACK_PX);
  if (!inBrowser) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        {...toasterPlacement(headerBottom)}
        duration={4000}
        visibleToasts={3}
        richColors
        closeButton
      />
    </Suspense>
  );
}
