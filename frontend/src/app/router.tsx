import {
  createBrowserRouter,
  Outlet,
  ScrollRestoration,
  useLocation,
  type RouteObject,
} from 'react-router-dom';
import { LandingPage } from '../features/landing/LandingPage';
import { NotFoundPage } from './NotFoundPage';
import {
  DashboardPlaceholder,
  GeneratorPlaceholder,
  PaymentResultPlaceholder,
  PricingPlaceholder,
} from './placeholders';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * Whether a path belongs to the payment result page. The spec says "any path starting with success" (Stripe
 * returns to `/success?session_id=…`), which a route pattern cannot express: patterns only allow `*` after `/`.
 */
export function isPaymentResultPath(pathname: string): boolean {
  return pathname.startsWith('/success');
}

function RootLayout() {
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
  return isPaymentResultPath(pathname) ? <PaymentResultPlaceholder /> : <NotFoundPage />;
}

/** The route table of the SPA (spec §2). Exported for tests, which mount it in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'generator', element: <GeneratorPlaceholder /> },
      { path: 'dashboard', element: <DashboardPlaceholder /> },
      { path: 'pricing', element: <PricingPlaceholder /> },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

/** The browser router: the screen follows the path, and back/forward change the screen. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
