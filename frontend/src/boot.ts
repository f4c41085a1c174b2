import './index.css';

/**
 * The SPA's entry (frontend/index.html): a few hundred bytes that decide when the app's JavaScript loads.
 *
 * - Every path but the landing and pricing pages is the empty shell, which has nothing to show without the app, so
 *   the app loads at once.
 * - The landing and pricing pages arrive as HTML rendered at build time (frontend/scripts/prerender-plugin.ts) that
 *   needs no script to show or to use: their links and buttons are real links and GET forms, prices are in the HTML,
 *   the gallery pauses without script. A signed-in visitor (Amplify's keys are in localStorage) gets the app as soon
 *   as the page has painted, to see their own header. A signed-out visitor gets it at their first sign of use —
 *   a touch, a pointer moving, a key, a focus, a scroll — and not before (a page view is still counted if they leave
 *   first: {@link countPageViewBeforeApp}): on a phone, starting React on the whole page
 *   costs about 150 ms of main thread on this repository's bench machine (600 ms at Lighthouse's 4× slowdown), which
 *   blocked the first taps while nothing on the page needed it (issue 27, docs/decisions/013-hydrate-on-intent.md).
 * - A page opened in a background tab loads the app at once: nothing competes with it there.
 */
function startApp(): void {
  void import('./main');
}

/**
 * The same in two tasks: React DOM (the largest module the app starts with) is evaluated in one, the router and the
 * app in the next, with the browser free to handle input in between. As one task they measured about 30 ms of main
 * thread on the bench machine, 120 ms at Lighthouse's 4× mobile slowdown.
 */
function startAppInSteps(): void {
  void import('react-dom/client').then(() => setTimeout(startApp));
}

/**
 * The events that show a visitor is using the page. Listened to on `window` in the capture phase and passive, so
 * none is delayed or changed: a tap on a link still follows it, a form still submits.
 */
const INTENT_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
  'wheel',
] as const;

/** Runs `start` once, at the first of {@link INTENT_EVENTS}. */
function onFirstIntent(start: () => void): void {
  const options: AddEventListenerOptions = { capture: true, passive: true };
  const once = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, once, options);
    start();
  };
  for (const type of INTENT_EVENTS) window.addEventListener(type, once, options);
}

/**
 * Until the app starts, a visitor who leaves still counts one page view: once the page has loaded, a small module
 * (the analytics client's rules and the API's address) waits for the page to be hidden and sends it by beacon.
 */
function countPageViewBeforeApp(appStarted: () => boolean): void {
  const arm = () =>
    void import('./lib/analytics/page-view-before-app').then(({ armPageViewBeforeApp }) =>
      armPageViewBeforeApp(appStarted),
    );
  if (document.readyState === 'complete') setTimeout(arm);
  else window.addEventListener('load', () => setTimeout(arm), { once: true });
}

/**
 * Whether this browser may hold a signed-in session: Amplify v6 keeps its tokens in localStorage under
 * `CognitoIdentityServiceProvider.<app client id>.…` (the client id is in /config.json, not loaded yet, so any
 * client's keys count). `true` when storage cannot be read.
 */
function maySignedIn(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      if (localStorage.key(i)?.startsWith('CognitoIdentityServiceProvider.')) return true;
    }
    return false;
  } catch {
    return true;
  }
}

const prerendered = document.getElementById('root')?.firstElementChild != null;
if (!prerendered || document.visibilityState === 'hidden') startApp();
// The animation frame callback runs just before the first frame is painted; the task it queues runs after it.
else if (maySignedIn()) requestAnimationFrame(() => setTimeout(startAppInSteps));
else {
  let started = false;
  onFirstIntent(() => {
    started = true;
    startAppInSteps();
  });
  countPageViewBeforeApp(() => started);
}
