import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth';
import type { RuntimeConfig } from '../lib/runtime-config';
import { RuntimeConfigProvider } from '../lib/runtime-config-context';
import { OfflineBanner } from '../components/OfflineBanner';
import { LazyToaster } from './LazyToaster';

/** Props of {@link AppProviders}. */
export interface AppProvidersProps {
  config: RuntimeConfig;
  /**
   * A react-query client for the whole tree (tests, the build-time render). Without it the parts that read the API
   * use the browser's shared client, loaded with them (lib/query-client.tsx), so the first page needs no react-query.
   */
  queryClient?: QueryClient;
  children: ReactNode;
}

/**
 * Everything a screen may rely on: runtime config, react-query, the session ({@link AuthProvider}), the toaster
 * (docs/product-spec.md §9: 4 s, 3; placed off the navigation) and the offline banner.
 */
export function AppProviders({ config, queryClient, children }: AppProvidersProps) {
  const screens = (
    <>
      <AuthProvider>{children}</AuthProvider>
      <LazyToaster />
      <OfflineBanner />
    </>
  );
  return (
    <RuntimeConfigProvider config={config}>
      {queryClient ? <QueryClientProvider client={queryClient}>{screens}</QueryClientProvider> : screens}
    </RuntimeConfigProvider>
  );
}
