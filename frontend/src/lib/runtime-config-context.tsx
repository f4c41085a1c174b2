import { createContext, use, type ReactNode } from 'react';
import type { RuntimeConfig } from './runtime-config';

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

/** Makes the configuration loaded at boot available to every component below it. */
export function RuntimeConfigProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext value={config}>{children}</RuntimeConfigContext>;
}

/** The runtime configuration. Only usable below {@link RuntimeConfigProvider}, which `main.tsx` always renders. */
export function useRuntimeConfig(): RuntimeConfig {
  const config = use(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig() must be used inside <RuntimeConfigProvider>');
  return config;
}
