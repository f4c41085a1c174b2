import { hydrate, QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { use, type ReactNode } from 'react';
import { ApiError } from './api-client';
import { clearOnUserChange } from './auth';
import { shareBalanceAcrossTabs } from './cross-tab';
import { readPrerenderedQueries } from './prerendered-queries';

/**
 * The app's react-query client. A 4xx answer will not change by asking again, so only network failures and 5xx
 * are retried (twice).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
        refetchOnWindowFocus: false,
      },
    },
  });
}

let shared: QueryClient | undefined;

/**
 * The browser's one client, made on first use: every screen and part that reads the API shares its cache. It starts
 * with the answers of a page rendered at build time ({@link readPrerenderedQueries}), so the first render on the
 * client matches that page's HTML (prices included) and hydrates it; they are refetched as stale ones are.
 */
function sharedQueryClient(): QueryClient {
  if (!shared) {
    shared = createQueryClient();
    const prerendered = readPrerenderedQueries();
    if (prerendered) hydrate(shared, prerendered);
    clearOnUserChange(shared);
    shareBalanceAcrossTabs(shared);
  }
  return shared;
}

/**
 * Gives `children` the react-query client: the one an ancestor provides (tests, the build-time render), else the
 * browser's shared one. react-query (its client, caches and observers) is loaded only with the parts of the app that
 * read the API — the lazily loaded routes, the credit packs, the credits badge — so the landing page hydrates
 * without it. Every such part renders inside this; nesting it is harmless.
 */
export function WithQueryClient({ children }: { children: ReactNode }) {
  const provided = use(QueryClientContext);
  if (provided) return children;
  return <QueryClientProvider client={sharedQueryClient()}>{children}</QueryClientProvider>;
}
