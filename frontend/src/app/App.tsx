import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { RuntimeConfig } from '../lib/runtime-config';
import { AppProviders } from './AppProviders';
import { createAppRouter } from './router';

/** The whole SPA, once the runtime configuration is known. */
export function App({ config }: { config: RuntimeConfig }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProviders config={config}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
