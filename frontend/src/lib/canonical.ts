/**
 * The canonical URL of one of the public pages on this site's own origin (`https://<origin>/pricing`): rendered as
 * `<link rel="canonical">` by the landing and pricing pages (React hoists it into the head), so each page names
 * itself, whichever domain serves it.
 */
export function canonicalUrl(path: string): string {
  return new URL(path, typeof window === 'undefined' ? buildOrigin : window.location.origin).href;
}

/** The public origin used when a page is rendered to HTML at build time, where there is no `window`. */
let buildOrigin = 'http://localhost:5173';

/** Sets the origin of canonical URLs rendered at build time (`SITE_URL`; frontend/src/app/prerender.tsx). */
export function setCanonicalOrigin(origin: string): void {
  buildOrigin = origin;
}
