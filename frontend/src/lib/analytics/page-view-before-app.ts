import { apiUrl } from '../api-client';
import { loadRuntimeConfig } from '../runtime-config';
import { browserAnalyticsDeps } from './browser-deps';
import { createAnalyticsClient } from './client';

/** The `performance.mark` set once a departure before the app starts would be counted. */
export const PAGE_VIEW_ARMED_MARK = 'headshot:page-view-armed';

/** The path whose page view went out before the app started, until the app's router takes it. */
let sentFor: string | undefined;

/**
 * The page view of a signed-out visitor on a prerendered page who leaves before the app has started: `boot.ts`
 * starts the app at the visitor's first input (docs/decisions/013-hydrate-on-intent.md), and one who never touches,
 * scrolls or moves a pointer would otherwise leave no `page_view`. Loads `/config.json` (for the API's address) and,
 * the first time the page is hidden while `appStarted()` is false, hands one `page_view` to `navigator.sendBeacon`
 * through the app's own analytics client rules (anonymous id, session, Do Not Track and GPC: `client.ts`). Never
 * throws: a configuration that cannot be had means no page view, as an analytics failure never breaks the page.
 *
 * @param appStarted whether `boot.ts` has started the app, whose router records the page view itself
 */
export async function armPageViewBeforeApp(appStarted: () => boolean): Promise<void> {
  let apiBase: string;
  try {
    ({ apiBase } = await loadRuntimeConfig());
  } catch {
    return;
  }
  const url = apiUrl('analytics/events', apiBase);
  const client = createAnalyticsClient(
    browserAnalyticsDeps({
      send: async (events) =>
        void (await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ events }),
          keepalive: true,
        })),
      beacon: (events) =>
        navigator.sendBeacon(url, new Blob([JSON.stringify({ events })], { type: 'application/json' })),
    }),
  );
  const onHide = (event: Event) => {
    if (event.type === 'visibilitychange' && document.visibilityState !== 'hidden') return;
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onHide);
    if (appStarted()) return;
    sentFor = location.pathname;
    client.track('page_view', undefined, sentFor);
    client.flushOnHide();
  };
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onHide);
  // Visible in the browser's performance timeline (and to the e2e tests): from here a departure is counted.
  performance.mark(PAGE_VIEW_ARMED_MARK);
}

/**
 * Whether `pathname`'s page view was sent before the app started (the visitor switched away, came back and then used
 * the page): the router then records none for it, once, so the visit counts one view.
 */
export function takePageViewSentBeforeApp(pathname: string): boolean {
  if (sentFor !== pathname) return false;
  sentFor = undefined;
  return true;
}
