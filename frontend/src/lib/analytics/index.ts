import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { beaconAnalyticsEvents, postAnalyticsEvents } from './api';
import {
  createAnalyticsClient,
  privacySignalsOn,
  type AnalyticsClient,
  type AnalyticsEventName,
  type AnalyticsProps,
} from './client';

export type { AnalyticsEventName, AnalyticsProps } from './client';

function randomId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

function browserClient(): AnalyticsClient {
  const storage =
    typeof localStorage === 'undefined' ? { getItem: () => null, setItem: () => undefined } : localStorage;
  return createAnalyticsClient({
    send: async (events) => void (await postAnalyticsEvents(events)),
    beacon: beaconAnalyticsEvents,
    storage,
    optedOut: () => typeof navigator === 'undefined' || privacySignalsOn(navigator, globalThis as unknown),
    now: () => Date.now(),
    randomId,
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
}

let client: AnalyticsClient | undefined;

/** The SPA's one analytics client, created on first use. */
export function analytics(): AnalyticsClient {
  client ??= browserClient();
  return client;
}

/** Records a product event (see `client.ts` for the rules). Safe anywhere: never throws, no-op under DNT/GPC. */
export function track(name: AnalyticsEventName, props?: AnalyticsProps): void {
  analytics().track(name, props, typeof location === 'undefined' ? undefined : location.pathname);
}

let hideListening = false;

/** Hands queued events to `navigator.sendBeacon` when the page is hidden or unloaded. Idempotent. */
export function listenForPageHide(): void {
  if (hideListening || typeof document === 'undefined') return;
  hideListening = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') analytics().flushOnHide();
  });
  window.addEventListener('pagehide', () => analytics().flushOnHide());
}

/** Records a `page_view` for every screen the router shows (path only: queries may hold ids). */
export function usePageViews(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    listenForPageHide();
    analytics().track('page_view', undefined, pathname);
  }, [pathname]);
}
