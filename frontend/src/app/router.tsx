import {
  createBrowserRouter,
  Outlet,
  ScrollRestoration,
  useLocation,
  type RouteObject,
} from 'react-router-dom';
import { RequireAuth } from '../features/auth';
import { usePageViews } from '../lib/analytics';
import { PaymentResultPage } from '../features/checkout/PaymentResultPage';
import { DashboardPage } from '../features/gallery';
import { GeneratorPage } from '../features/generator';
import { LandingPage } from '../features/landing/LandingPage';
import { PricingPage } from '../features/pricing/PricingPage';
import { BootScreen } from './BootScreens';
import { NotFoundPage } from './NotFoundPage';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * Whether a path belongs to the payment result page. The spec says "any path starting with success" (Stripe
 * returns to `/success?session_id=…`), which a route pattern cannot express: patterns only allow `*` after `/`.
 */
export function isPaymentResultPath(pathname: string): boolean {
  return pathname.startsWith('/success');
}

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

function CatchAll() {
  const { pathname } = useLocation();
  return isPaymentResultPath(pathname) ? <PaymentResultPage /> : <NotFoundPage />;
}

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
        path: 'generator',
        element: (
          <RequireAuth>
            <GeneratorPage />
          </RequireAuth>
        ),
      },
      {
        path: 'dashboard',
        element: (
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        ),
      },
      // Amplify UI and its stylesheet load only here, never with the landing page.
      {
        path: 'signin',
        lazy: async () => ({ Component: (await import('../features/auth/SignInPage')).SignInPage }),
      },
      { path: 'pricing', element: <PricingPage /> },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

/** The browser router: the screen follows the path, and back/forward change the screen. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
