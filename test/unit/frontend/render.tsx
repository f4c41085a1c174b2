// Amplify's session stand-in and the API's mock server come first: every test that renders uses both.
import { testConfig } from './auth-session';
import './api-mocks';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { toast } from 'sonner';
import { AppProviders } from '../../../frontend/src/app/AppProviders';
import { routes as appRoutes } from '../../../frontend/src/app/router';
import { paths } from '../../../frontend/src/config/paths';
import { useAuth } from '../../../frontend/src/lib/auth';
import type { RuntimeConfig } from '../../../frontend/src/lib/runtime-config';

export { testConfig };

/**
 * The one render harness of the SPA's unit tests: a screen (or the whole app) in a memory router at a path, below
 * the app's own providers (`app/AppProviders`: runtime configuration, a fresh react-query client, the session and the
 * toaster), the way `app/App.tsx` provides them. The API is `api-mocks.ts`'s server; the session is
 * `auth-session.ts`'s.
 */

/** The screens around the one under test: each is a bare heading, so a test can see where it went. */
export const STUB_SCREENS: Record<string, string> = {
  [paths.home.href]: 'Landing',
  [paths.pricing.href]: 'Pricing screen',
  [paths.dashboard.href]: 'Dashboard screen',
  [paths.generator.href]: 'Generator screen',
  [paths.signIn.href]: 'Sign-in screen',
  [`/${paths.team.path}`]: 'Team screen',
};

/** Options of {@link renderAt}. */
export interface RenderAtOptions {
  /** The screen under test, mounted at `route` among {@link STUB_SCREENS}. Omitted: the app's own route table. */
  element?: ReactElement;
  /** The route pattern `element` is mounted at; default: the path's pathname. */
  route?: string;
  /** History entries before `path` (Back goes there). */
  history?: string[];
  /** Fills the react-query cache before the first render. */
  seed?: (queryClient: QueryClient) => void;
  /** Render inside `<StrictMode>`, as `main.tsx` does. */
  strict?: boolean;
  /** The runtime configuration (`/config.json`); default {@link testConfig}. */
  config?: RuntimeConfig;
}

/**
 * Renders at `path` and returns the memory router (to read or drive the location), the query client and `here()`,
 * the router's current path and query.
 */
export function renderAt(path: string, options: RenderAtOptions = {}) {
  const { element, history = [], seed, strict = false, config = testConfig } = options;
  const route = options.route ?? new URL(path, 'http://localhost').pathname;
  const routes: RouteObject[] = element
    ? [
        {
          path: route,
          element: (
            <>
              <SessionProbe />
              {element}
            </>
          ),
        },
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
  const tree = (
    <AppProviders config={config} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
  const result = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  /** The router's current path and query, e.g. `/signin?returnTo=%2Fdashboard`. */
  const here = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...result, router, queryClient, here };
}

/** Where the session stands, in a hidden element beside the screen under test (see {@link sessionSettled}). */
function SessionProbe() {
  return <span hidden data-testid="session-status" data-status={useAuth().status} />;
}

/**
 * Waits until the screen under test (rendered with `element`) knows whether someone is signed in: the session is read
 * after the first render, as in the browser, and a test of a signed-in or signed-out rule acts once it is known.
 */
export async function sessionSettled(): Promise<void> {
  await waitFor(() =>
    expect(document.querySelector('[data-testid="session-status"]')?.getAttribute('data-status')).not.toBe(
      'loading',
    ),
  );
}

/** A toast on screen: sonner's `toast.success|error|info|warning(title, { description })`. */
export interface ShownToast {
  type: string;
  title: string;
  description?: string;
}

/** Every toast element shown in this test, in the order they appeared (sonner removes each after 4 s). */
const shown: HTMLElement[] = [];
const recordToasts = (root: ParentNode) => {
  for (const toast of root.querySelectorAll<HTMLElement>('[data-sonner-toast]')) {
    if (!shown.includes(toast)) shown.push(toast);
  }
};
let toastWatch: MutationObserver | undefined;

/**
 * The toasts shown so far in this test, oldest first, whether or not they are still on screen (the app's own
 * toaster, `app/LazyToaster`, dismisses each after 4 s: a slow machine must not make one vanish before it is read).
 */
export function toasts(): ShownToast[] {
  recordToasts(document);
  return shown.map((toast) => {
    const description = toast.querySelector('[data-description]')?.textContent ?? undefined;
    return {
      type: toast.dataset.type ?? '',
      title: toast.querySelector('[data-title]')?.textContent ?? '',
      ...(description === undefined ? {} : { description }),
    };
  });
}

/** The toasts of one type shown so far in this test. */
export const toastsOf = (type: 'success' | 'error' | 'info' | 'warning') =>
  toasts().filter((toast) => toast.type === type);

/** Waits until a toast of `type` saying `title` (and `description`, when given) has been shown. */
export async function expectToast(
  type: ShownToast['type'],
  title: string | RegExp,
  description?: string,
): Promise<void> {
  const wanted = {
    type,
    title: typeof title === 'string' ? title : expect.stringMatching(title),
  };
  await waitFor(() =>
    expect(toasts()).toContainEqual(
      description === undefined ? expect.objectContaining(wanted) : { ...wanted, description },
    ),
  );
}

// What jsdom lacks and the screens call: scrolling and object URLs (photo previews, downloads).
beforeEach(() => {
  shown.length = 0;
  toastWatch = new MutationObserver(() => recordToasts(document));
  toastWatch.observe(document.body, { childList: true, subtree: true });
  vi.stubGlobal('scrollTo', vi.fn());
  Element.prototype.scrollIntoView = vi.fn();
  URL.createObjectURL = vi.fn(() => `blob:preview-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  toastWatch?.disconnect();
  cleanup();
  // sonner keeps its toasts in module state: the next test's toaster must not show this test's.
  toast.dismiss();
  vi.unstubAllGlobals();
});
