import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { AuthProvider } from '../lib/auth';
import type { RuntimeConfig } from '../lib/runtime-config';
import { RuntimeConfigProvider } from '../lib/runtime-config-context';
import { LazyToaster } from './LazyToaster';
import { createQueryClient } from './query-client';

/** Props of {@link AppProviders}. */
export interface AppProvidersProps {
  config: RuntimeConfig;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
  children: ReactNode;
}

/**
 * Everything a screen may rely on: runtime config, react-query, the session ({@link AuthProvider}) and the toaster
 * (docs/product-spec.md §9: top-right, 4 s, 3).
 */
export function AppProviders({ config, queryClient, children }: AppProvidersProps) {
  const [ownClient] = useState(createQueryClient);
  return (
    <RuntimeConfigProvider config={config}>
      <QueryClientProvider client={queryClient ?? ownClient}>
        <AuthProvider>{children}</AuthProvider>
        <LazyToaster />
      </QueryClientProvider>
    </RuntimeConfigProvider>
  );
}
