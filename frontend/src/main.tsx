import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { BootScreen, ConfigErrorScreen } from './app/BootScreens';
import { loadRouteOf } from './app/router';
import { configureAuth } from './lib/auth/configure';
import { configureApi } from './lib/api-client';
import { loadRuntimeConfig } from './lib/runtime-config';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The landing and pricing pages arrive as HTML rendered at build time (frontend/scripts/prerender-plugin.ts): it
// stays on screen while /config.json loads and is then hydrated. Every other path starts from an empty shell.
const prerendered = container.firstElementChild !== null;
const root = prerendered ? undefined : createRoot(container);
root?.render(<BootScreen />);

// Settings come from /config.json at run time, not from the bundle, so one build serves every stage.
// A prerendered page that is a lazy route (/pricing) has its code loaded alongside, before it is hydrated.
Promise.all([loadRuntimeConfig(), prerendered ? loadRouteOf(window.location.pathname) : undefined]).then(
  ([config]) => {
    configureApi({ apiBase: config.apiBase });
    configureAuth(config);
    const app = (
      <StrictMode>
        <App config={config} />
      </StrictMode>
    );
    if (root) {
      root.render(app);
      return;
    }
    // React adopts the prerendered <title> but adds its own canonical link: keep one.
    for (const link of document.head.querySelectorAll('link[rel="canonical"]')) link.remove();
    // As a transition, hydration yields to the browser every few milliseconds instead of blocking it in one task.
    startTransition(() => {
      hydrateRoot(container, app, {
        // A text that differs from the build's (another stage's support address) is re-rendered, not an error.
        onRecoverableError: (error) => console.warn('Hydration recovered:', error),
      });
    });
  },
  (error: unknown) => {
    console.error('Headshot Studio could not start:', error);
    (root ?? createRoot(container)).render(<ConfigErrorScreen />);
  },
);
