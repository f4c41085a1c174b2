import { useEffect, type ComponentType } from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  Outlet,
  ScrollRestoration,
  useLocation,
  type RouteObject,
} from 'react-router-dom';
import { RequireAuth } from '../components/RequireAuth';
import { takePageViewSentBeforeApp } from '../lib/analytics/page-view-before-app';
import { loadSession } from '../lib/auth/configure';
import { LandingPage } from '../features/landing';
import { isPaymentResultPath, paths } from '../config/paths';
import { BootScreen } from './BootScreens';
import { NotFoundPage } from './NotFoundPage';
import { RouteErrorPage } from './RouteErrorPage';

export { isPaymentResultPath };

/**
 * Records a `page_view` for every screen the router shows (path only: queries may hold ids), like the analytics
 * module's `usePageViews`, but loads that module after the first render: it is not needed to show or hydrate a page.
 */
function usePageViewsAfterLoad() {
  const { pathname } = useLocation();
  useEffect(() => {
    void import('../lib/analytics').then(({ analytics, listenForPageHide }) => {
      listenForPageHide();
      if (takePageViewSentBeforeApp(pathname)) return;
      analytics().track('page_view', undefined, pathname);
    });
  }, [pathname]);
}

function RootLayout() {
  usePageViewsAfterLoad();
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
 * Route-level code splitting: the landing page (rendered to static HTML at build time) is in the first chunk; the
 * pricing page (also prerendered) is a chunk of its own, loaded before that page is hydrated ({@link loadRouteOf}); the generator, the dashboard, sign-in, the payment result page and their libraries (Amplify UI, heic-to,
 * react-dropzone, fflate) load only when their route is visited.
 */

/**
 * A route's page loaded with the react-query client its screens read (lib/query-client.tsx), which the landing page
 * does without: it arrives with the first route that needs it.
 */
async function withQueries<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): Promise<ComponentType<Props>> {
  const [Page, { WithQueryClient }] = await Promise.all([load(), import('../lib/query-client')]);
  return function RoutePage(props: Props) {
    return (
      <WithQueryClient>
        <Page {...props} />
      </WithQueryClient>
    );
  };
}

/** A route whose page needs a signed-in customer: its code loads on the first visit, behind RequireAuth. */
function signedInPage(load: () => Promise<ComponentType>) {
  return async () => {
    const Page = await withQueries(load);
    return {
      element: (
        <RequireAuth>
          <Page />
        </RequireAuth>
      ),
    };
  };
}

/** A route of one of the legal pages (features/legal): public, no queries. */
function legalPage(name: 'TermsPage' | 'PrivacyPage' | 'RefundPolicyPage') {
  return async () => ({ Component: (await import('../features/legal'))[name] });
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
        path: paths.generator.path,
        lazy: signedInPage(async () => (await import('../features/generator')).GeneratorRoute),
      },
      {
        path: paths.dashboard.path,
        lazy: signedInPage(async () => (await import('../features/dashboard')).DashboardPage),
      },
      // Teams (issue 37): creating one and a team's page need sign-in; an invitation link's page is open to all.
      {
        path: paths.newTeam.path,
        lazy: signedInPage(async () => (await import('../features/teams')).CreateTeamPage),
      },
      {
        path: paths.team.path,
        lazy: signedInPage(async () => (await import('../features/teams')).TeamPage),
      },
      {
        path: paths.join.path,
        lazy: async () => {
          const JoinPage = await withQueries(async () => (await import('../features/teams')).JoinPage);
          return { Component: JoinPage };
        },
      },
      // Amplify UI and its stylesheet load only here; Amplify is configured before the Authenticator renders.
      {
        path: paths.signIn.path,
        lazy: async () => {
          const [SignInPage] = await Promise.all([
            withQueries(async () => (await import('../features/auth/components/SignInPage')).SignInPage),
            loadSession(),
          ]);
          return { Component: SignInPage };
        },
      },
      {
        path: paths.pricing.path,
        lazy: async () => {
          const PricingPage = await withQueries(
            async () => (await import('../features/pricing')).PricingPage,
          );
          return { Component: PricingPage };
        },
      },
      // The legal pages: one chunk for the three, rendered to HTML at build time (app/prerender.tsx).
      { path: paths.terms.path, lazy: legalPage('TermsPage') },
      { path: paths.privacy.path, lazy: legalPage('PrivacyPage') },
      { path: paths.refunds.path, lazy: legalPage('RefundPolicyPage') },
      {
        path: paths.checkoutCancelled.path,
        lazy: async () => {
          const CheckoutCancelledPage = await withQueries(
            async () =>
              (await import('../features/checkout/components/CheckoutCancelledPage')).CheckoutCancelledPage,
          );
          return { Component: CheckoutCancelledPage };
        },
      },
      {
        path: '*',
        lazy: async () => {
          const PaymentResultPage = await withQueries(
            async () => (await import('../features/checkout/components/PaymentResultPage')).PaymentResultPage,
          );
          return { element: <CatchAll PaymentResultPage={PaymentResultPage} /> };
        },
      },
    ],
  },
];

/**
 * Loads the lazy routes that match `pathname` and makes them ordinary routes, so the router renders them on its
 * first render, as the HTML rendered at build time shows them, instead of its loading screen (what hydrating a
 * prerendered page that is a lazy route needs).
 */
export async function loadRouteOf(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

/** The browser router: the screen follows the path, and back/forward change the screen. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
