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

/**
 * On a painted page, the same in two tasks: React DOM (the largest module the app starts with) is evaluated in one,
 * the router and the app in the next, with the browser free to handle a tap in between. As one task they measured
 * about 30 ms of main thread on the bench machine, 120 ms at Lighthouse's 4× mobile slowdown: long enough to block
 * input (issue 27: hydration must not block the main thread).
 */
function startAppInSteps(): void {
  void import('react-dom/client').then(() => setTimeout(startApp));
}

const prerendered = document.getElementById('root')?.firstElementChild != null;
if (!prerendered || document.visibilityState === 'hidden') startApp();
// The animation frame callback runs just before the first frame is painted; the task it queues runs after it.
else requestAnimationFrame(() => setTimeout(startAppInSteps));
