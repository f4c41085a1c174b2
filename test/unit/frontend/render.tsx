import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { AppProviders } from '../../../frontend/src/app/AppProviders';
import { routes as appRoutes } from '../../../frontend/src/app/router';
import { paths } from '../../../frontend/src/config/paths';
import type { RuntimeConfig } from '../../../frontend/src/lib/runtime-config';
import { RuntimeConfigProvider } from '../../../frontend/src/lib/runtime-config-context';

/**
 * The one render harness of the SPA's unit tests: a screen (or the whole app) in a memory router at a path, with a
 * fresh react-query client and the runtime configuration, the way `app/App.tsx` provides them.
 */

/** The runtime configuration every test renders with (the local stack's shape). */
export const testConfig: RuntimeConfig = {
  region: 'us-east-1',
  userPoolId: 'local_abc',
  userPoolClientId: 'client',
  cognitoEndpoint: null,
  apiBase: '/api',
  supportEmail: 'help@headshots.example',
  stage: 'test',
  authFlowType: 'USER_PASSWORD_AUTH',
};

/** The screens around the one under test: each is a bare heading, so a test can see where it went. */
export const STUB_SCREENS: Record<string, string> = {
  [paths.home.href]: 'Landing',
  [paths.pricing.href]: 'Pricing screen',
  [paths.dashboard.href]: 'Dashboard screen',
  [paths.generator.href]: 'Generator screen',
};

/** Options of {@link renderAt}. */
export interface RenderAtOptions {
  /**
   * The screen under test, mounted at `route` among {@link STUB_SCREENS}, below the runtime configuration and
   * react-query only (the test mocks `lib/auth` as it needs). Omitted: the app's own route table below
   * `AppProviders`, session included (the test mocks Amplify).
   */
  element?: ReactElement;
  /** The route pattern `element` is mounted at; default: the path's pathname. */
  route?: string;
  /** History entries before `path` (Back goes there). */
  history?: string[];
  /** Fills the react-query cache before the first render. */
  seed?: (queryClient: QueryClient) => void;
  /** Render inside `<StrictMode>`, as `main.tsx` does. */
  strict?: boolean;
}

/**
 * Renders at `path` and returns the memory router (to read or drive the location) and the query client.
 */
export function renderAt(path: string, options: RenderAtOptions = {}) {
  const { element, history = [], seed, strict = false } = options;
  const route = options.route ?? new URL(path, 'http://localhost').pathname;
  const routes: RouteObject[] = element
    ? [
        { path: route, element },
        ...Object.entries(STUB_SCREENS)
          .filter(([href]) => href !== route)
          .map(([href, name]) => ({ path: href, element: <h1>{name}</h1> })),
      ]
    : appRoutes;
  const router = createMemoryRouter(routes, {
    initialEntries: [...history, path],
    initialIndex: history.length,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  seed?.(queryClient);
  const tree = element ? (
    <RuntimeConfigProvider config={testConfig}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </RuntimeConfigProvider>
  ) : (
    <AppProviders config={testConfig} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  /** The router's current path and query, e.g. `/signin?returnTo=%2Fdashboard`. */
  const here = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...result, router, queryClient, here };
}

/**
 * Replaces the browser pieces jsdom lacks or a test must control: `fetch` (answered by `answer`), `scrollTo` and
 * `scrollIntoView`. Call it in `beforeEach`; everything is put back after each test.
 */
export function stubBrowser(
  answer: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> | Response,
) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => answer(input, init));
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('scrollTo', vi.fn());
  Element.prototype.scrollIntoView = vi.fn();
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
