import './index.css';

/**
 * The SPA's entry (frontend/index.html): a few hundred bytes that decide when the app's JavaScript loads. The landing
 * and pricing pages arrive as HTML rendered at build time (frontend/scripts/prerender-plugin.ts) that needs no script
 * to show, so the app (`main.tsx`, React and the router) is requested only once that HTML has been painted: its
 * download and evaluation never delay the first paint, and the hero's images and the page's stylesheet have the
 * network to themselves until then. Every other path is the empty shell, which has nothing to show without the app,
 * so it loads at once; so does a page opened in a background tab, where no frame is painted until it is shown.
 */
function startApp(): void {
  void import('./main');
}

const prerendered = document.getElementById('root')?.firstElementChild != null;
if (!prerendered || document.visibilityState === 'hidden') startApp();
// The animation frame callback runs just before the first frame is painted; the task it queues runs after it.
else requestAnimationFrame(() => setTimeout(startApp));
