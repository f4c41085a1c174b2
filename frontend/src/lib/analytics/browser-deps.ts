import { privacySignalsOn, type AnalyticsDeps } from './client';

/** How a batch leaves the page: while it lives (`send`) and as it goes away (`beacon`). */
export type AnalyticsTransport = Pick<AnalyticsDeps, 'send' | 'beacon'>;

function randomId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/**
 * The browser's side of the analytics client (`client.ts`) around `transport`: `localStorage` for the anonymous id
 * and the session, Do Not Track and Global Privacy Control for opting out, the page's clock and timers. The app's
 * client and the page view sent before the app has started (`page-view-before-app.ts`) share it, so both keep the
 * same ids and honour the same signals.
 */
export function browserAnalyticsDeps(transport: AnalyticsTransport): AnalyticsDeps {
  const storage =
    typeof localStorage === 'undefined' ? { getItem: () => null, setItem: () => undefined } : localStorage;
  return {
    ...transport,
    storage,
    optedOut: () => typeof navigator === 'undefined' || privacySignalsOn(navigator, globalThis as unknown),
    now: () => Date.now(),
    randomId,
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
