import { lazy, Suspense, useSyncExternalStore } from 'react';

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

const subscribeToNothing = () => () => undefined;

/** The header's height when it cannot be measured (before the app renders, in jsdom): AppHeader's 4 rem row. */
const HEADER_FALLBACK_PX = 64;

/**
 * Calls `onChange` when the header may have moved or changed size: the page resized, scrolled or changed its content,
 * or the header itself grew (the wizard's step row, a credits badge loaded later). The page's body alone is not
 * enough: a page shorter than the screen keeps its body's height while its header grows (e2e, generator-phone: a toast
 * placed under a header 19 px shorter than the one shown).
 */
function subscribeToLayout(onChange: () => void): () => void {
  let watched: Element | null = null;
  const observer =
    typeof ResizeObserver === 'undefined'
      ? undefined
      : new ResizeObserver(() => {
          watchHeader();
          onChange();
        });
  // The header of the page showing now: a route change replaces it.
  function watchHeader() {
    const header = document.querySelector('header');
    if (header === watched) return;
    if (watched) observer?.unobserve(watched);
    if (header) observer?.observe(header);
    watched = header;
  }
  window.addEventListener('resize', onChange);
  window.addEventListener('scroll', onChange, { passive: true });
  observer?.observe(document.body);
  watchHeader();
  return () => {
    window.removeEventListener('resize', onChange);
    window.removeEventListener('scroll', onChange);
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
