import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { BootScreen, ConfigErrorScreen, StartFailureBanner } from './app/BootScreens';
import { loadRouteOf } from './app/router';
import { configureAuth } from './lib/auth/configure';
import { configureApi } from './lib/api-client';
import { loadRuntimeConfigWithRetry, type RuntimeConfig } from './lib/runtime-config';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The landing and pricing pages arrive as HTML rendered at build time (frontend/scripts/prerender-plugin.ts): it
// stays on screen while /config.json loads and is then hydrated. Every other path starts from an empty shell.
const prerendered = container.firstElementChild !== null;
const root = prerendered ? undefined : createRoot(container);
root?.render(<BootScreen />);

/** Renders (the shell) or hydrates (a prerendered page) the app with its configuration. */
function render(config: RuntimeConfig): void {
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
    hydrateRoot(container!, app, {
      // A text that differs from the build's (another stage's support address) is re-rendered, not an error.
      onRecoverableError: (error) => console.warn('Hydration recovered:', error),
    });
  });
}

/**
 * Loads the settings (from /config.json, asked again with backoff after a failure) and, on a prerendered page that
 * is a lazy route (/pricing), that route's code, then starts the app.
 *
 * @returns whether the app started
 */
async function start(): Promise<boolean> {
  let config: RuntimeConfig;
  try {
    [config] = await Promise.all([
      loadRuntimeConfigWithRetry({
        onRetry: (error, delayMs) => console.warn(`${error.message}; asking again in ${delayMs} ms`),
      }),
      prerendered ? loadRouteOf(window.location.pathname) : undefined,
    ]);
  } catch (error) {
    console.error('Headshot Studio could not start:', error);
    return false;
  }
  render(config);
  return true;
}

// Settings come from /config.json at run time, not from the bundle, so one build serves every stage. When they
// cannot be had, a prerendered page stays on screen (its links and buttons work without the app) with a note
// offering to try again; the empty shell shows the error screen, whose 'Try again' does the same.
void start().then((started) => {
  if (started) return;
  if (root) {
    root.render(<ConfigErrorScreen onRetry={start} />);
    return;
  }
  const note = document.body.appendChild(document.createElement('div'));
  const noteRoot = createRoot(note);
  noteRoot.render(
    <StartFailureBanner
      onRetry={async () => {
        if (!(await start())) return;
        noteRoot.unmount();
        note.remove();
      }}
    />,
  );
});
