import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  Outlet,
  ScrollRestoration,
  useLocation,
  type RouteObject,
} from 'react-router-dom';
import { RequireAuth } from '../components/RequireAuth';
import { usePageViews } from '../lib/analytics';
import { loadSession } from '../lib/auth/configure';
import { LandingPage } from '../features/landing';
import { PricingPage } from '../features/pricing';
import { isPaymentResultPath, paths } from '../config/paths';
import { BootScreen } from './BootScreens';
import { NotFoundPage } from './NotFoundPage';
import { RouteErrorPage } from './RouteErrorPage';

export { isPaymentResultPath };

function RootLayout() {
  usePageViews();
  return (
    <>
      {/* New screens start at the top; back/forward restore the old position; `/#pricing` scrolls to it. */}
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

function CatchAll({ PaymentResultPage }: { PaymentResultPage: ComponentType }) {
  const { pathname } = useLocation();
  return isPaymentResultPath(pathname) ? <PaymentResultPage /> : <NotFoundPage />;
}

/*
 * Route-level code splitting: the landing and pricing pages (rendered to static HTML at build time) are in the first
 * chunk; the generator, the dashboard, sign-in, the payment result page and their libraries (Amplify UI, heic-to,
 * react-dropzone, fflate) load only when their route is visited.
 */

/** The route table of the SPA (docs/product-spec.md §2). Exported for tests, which mount it in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while a lazy route (e.g. /signin) loads on a fresh page, instead of a blank screen.
    hydrateFallbackElement: <BootScreen />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        path: paths.generator.path,
        lazy: async () => {
          const { GeneratorPage } = await import('../features/generator');
          return {
            element: (
              <RequireAuth>
                <GeneratorPage />
              </RequireAuth>
            ),
          };
        },
      },
      {
        path: paths.dashboard.path,
        lazy: async () => {
          const { DashboardPage } = await import('../features/gallery');
          return {
            element: (
              <RequireAuth>
                <DashboardPage />
              </RequireAuth>
            ),
          };
        },
      },
      // Amplify UI and its stylesheet load only here; Amplify is configured before the Authenticator renders.
      {
        path: paths.signIn.path,
        lazy: async () => {
          const [{ SignInPage }] = await Promise.all([
            import('../features/auth/components/SignInPage'),
            loadSession(),
          ]);
          return { Component: SignInPage };
        },
      },
      { path: paths.pricing.path, element: <PricingPage /> },
      {
        path: '*',
        lazy: async () => {
          const { PaymentResultPage } = await import('../features/checkout/components/PaymentResultPage');
          return { element: <CatchAll PaymentResultPage={PaymentResultPage} /> };
        },
      },
    ],
  },
];

/** The browser router: the screen follows the path, and back/forward change the screen. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
