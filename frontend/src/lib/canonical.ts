/**
 * The canonical URL of one of the public pages on this site's own origin (`https://<origin>/pricing`): rendered as
 * `<link rel="canonical">` by the landing and pricing pages (React hoists it into the head), so each page names
 * itself, whichever domain serves it.
 */
export function canonicalUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}
