import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { beaconAnalyticsEvents, postAnalyticsEvents } from './api';
import { browserAnalyticsDeps } from './browser-deps';
import {
  createAnalyticsClient,
  type AnalyticsClient,
  type AnalyticsEventName,
  type AnalyticsProps,
} from './client';

export type { AnalyticsEventName, AnalyticsProps } from './client';

function browserClient(): AnalyticsClient {
  return createAnalyticsClient(
    browserAnalyticsDeps({
      send: async (events) => void (await postAnalyticsEvents(events)),
      beacon: beaconAnalyticsEvents,
    }),
  );
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
