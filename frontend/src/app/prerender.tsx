import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { setCanonicalOrigin } from '../lib/canonical';
import { dehydrate } from '@tanstack/react-query';
import { CREDIT_PACKS } from '../../../functions/domain/packs';
import { packsQueryKey } from '../lib/api/get-packs';
import { createQueryClient } from '../lib/query-client';
import type { RuntimeConfig } from '../lib/runtime-config';
import { AppProviders } from './AppProviders';
import { routes } from './router';

/**
 * The public pages rendered to static HTML at build time: `/` → `index.html`, `/pricing` → `pricing.html`, and the
 * legal pages `/terms`, `/privacy`, `/refunds` → `terms.html`, `privacy.html`, `refunds.html`.
 */
export const PRERENDERED_PAGES = [
  { path: '/', file: 'index.html' },
  { path: '/pricing', file: 'pricing.html' },
  { path: '/terms', file: 'terms.html' },
  { path: '/privacy', file: 'privacy.html' },
  { path: '/refunds', file: 'refunds.html' },
] as const;

/** A Suspense boundary rendered as its fallback (`<!--$!-->`, to be rendered by the client) or pending. */
const SUSPENDED = /<!--\$[?!]-->/;
/** Render passes before giving up on a lazily loaded part (20 ms apart). */
const MAX_PASSES = 50;

/** One page rendered at build time: the markup of `#root` and the tags React hoists into the head. */
export interface PrerenderedPage {
  /** What goes inside `<div id="root">`. */
  body: string;
  /** `<title>` and `<link rel="canonical">` of the page, for the head. */
  head: string;
  /**
   * The API answers the page was rendered with (react-query's dehydrated state) as JSON safe inside a
   * `<script type="application/json">` (no `<`), for the client's first render (lib/query-client.tsx).
   */
  queries: string;
}

/**
 * Renders `path` with the real components, router and providers the SPA hydrates (frontend/src/main.tsx), as a
 * visitor who is not known yet sees it: the session is `loading`, queries are pending. `origin` is the public origin
 * of canonical URLs (`SITE_URL`); `config` is the runtime configuration the page may show (the support e-mail).
 *
 * @throws Error when `path` is not a route that renders without loading code (a lazy route)
 */
export async function prerender(
  path: string,
  config: RuntimeConfig,
  origin: string,
): Promise<PrerenderedPage> {
  setCanonicalOrigin(origin);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, origin)));
  if (context instanceof Response) throw new Error(`${path} answered a redirect at build time`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // A client of its own per page: nothing cached while rendering one page leaks into the next. The credit packs are
  // the API's own catalogue (GET /api/packs answers the same list), so the page shows the prices before any script.
  const queryClient = createQueryClient();
  queryClient.setQueryData(packsQueryKey, CREDIT_PACKS);
  const render = () =>
    renderToString(
      <AppProviders config={config} queryClient={queryClient}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>,
    );
  // A lazily loaded part (the credit packs' chunk) is requested by the first pass, which renders its fallback marked
  // for the client; once the chunk has loaded, a later pass renders it in place.
  let html = render();
  for (let pass = 1; SUSPENDED.test(html) && pass < MAX_PASSES; pass++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    html = render();
  }
  if (SUSPENDED.test(html) || /<script\b/.test(html))
    throw new Error(`${path} did not render completely at build time`);
  // React emits hoistable tags (title, canonical link) ahead of the markup; they belong in the head, where the
  // client's hydration finds and adopts them.
  const hoisted: string[] = [];
  const body = html.replace(/^(?:<title>[^<]*<\/title>|<link [^>]*\/?>|<meta [^>]*\/?>)+/, (tags) => {
    hoisted.push(tags);
    return '';
  });
  const queries = JSON.stringify(dehydrate(queryClient)).replaceAll('<', '\\u003c');
  return { body, head: hoisted.join(''), queries };
}
