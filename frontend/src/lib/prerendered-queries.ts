import type { DehydratedState } from '@tanstack/react-query';

/**
 * The id of the `<script type="application/json">` a page rendered at build time carries the answers it was rendered
 * with in (react-query's dehydrated state: the credit packs; frontend/scripts/prerender-plugin.ts writes it). A data
 * block, never executed, so the site's Content-Security-Policy (no inline scripts) allows it.
 */
export const PRERENDERED_QUERIES_ID = 'prerendered-queries';

/**
 * The answers the page was rendered with at build time, or `undefined` on a page without them (the SPA shell) or
 * when they cannot be read: the app then asks the API, as it always can.
 */
export function readPrerenderedQueries(doc: Document = document): DehydratedState | undefined {
  const text = doc.getElementById(PRERENDERED_QUERIES_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as DehydratedState;
  } catch {
    return undefined;
  }
}
