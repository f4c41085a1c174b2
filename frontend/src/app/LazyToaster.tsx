import { lazy, Suspense, useSyncExternalStore } from 'react';

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

const subscribeToNothing = () => () => undefined;

/**
 * The toaster (docs/product-spec.md §9: top-right, 4 s, at most 3 visible), loaded after the first render: toasts
 * only follow something the visitor did, so sonner stays out of the first page's JavaScript and out of the HTML
 * rendered at build time (a hydrating page renders it only once hydrated, as the server snapshot says `false`).
 */
export function LazyToaster() {
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  if (!inBrowser) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster position="top-right" duration={4000} visibleToasts={3} richColors closeButton />
    </Suspense>
  );
}
