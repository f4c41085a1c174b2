import type { Plugin } from 'vite';

/** The pages search engines may index, with their sitemap priority. */
const PAGES = [
  { path: '/', priority: '1.0' },
  { path: '/pricing', priority: '0.8' },
  { path: '/terms', priority: '0.3' },
  { path: '/privacy', priority: '0.3' },
  { path: '/refunds', priority: '0.3' },
];

const TITLE = 'Headshot Studio · Professional AI headshots from your selfies';
const DESCRIPTION =
  'Turn 5-10 selfies into professional AI headshots for LinkedIn, résumés and professional profiles. 100+ headshots in high resolution.';

/**
 * What the production build adds for search engines and link previews (docs/architecture.md, site): `robots.txt`
 * (everything allowed but the signed-in screens, and where the sitemap is), `sitemap.xml` (the landing and pricing
 * pages), and in index.html Open Graph and Twitter card tags with the share image (frontend/scripts/
 * make-share-image.ts). Absolute URLs need the public origin at build time: `SITE_URL` (e.g.
 * `https://headshots.example.com`), default `http://localhost:5173`. Each page sets its own canonical URL at run time.
 */
export function seoPlugin(siteUrl = process.env.SITE_URL ?? 'http://localhost:5173'): Plugin {
  const origin = siteUrl.replace(/\/+$/, '');
  const escape = (value: string) =>
    value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return {
    name: 'headshot-studio-seo',
    apply: 'build',
    transformIndexHtml() {
      const meta = (attribute: 'property' | 'name', key: string, content: string) => ({
        tag: 'meta',
        attrs: { [attribute]: key, content },
        injectTo: 'head' as const,
      });
      return [
        meta('property', 'og:type', 'website'),
        meta('property', 'og:site_name', 'Headshot Studio'),
        meta('property', 'og:title', TITLE),
        meta('property', 'og:description', DESCRIPTION),
        meta('property', 'og:url', `${origin}/`),
        meta('property', 'og:image', `${origin}/images/share.png`),
        meta('property', 'og:image:width', '1200'),
        meta('property', 'og:image:height', '630'),
        meta('property', 'og:image:alt', 'Headshot Studio: professional headshots from your selfies'),
        meta('name', 'twitter:card', 'summary_large_image'),
        meta('name', 'twitter:title', TITLE),
        meta('name', 'twitter:description', DESCRIPTION),
        meta('name', 'twitter:image', `${origin}/images/share.png`),
      ];
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'robots.txt',
        source: [
          'User-agent: *',
          'Allow: /',
          'Disallow: /dashboard',
          'Disallow: /generator',
          'Disallow: /signin',
          'Disallow: /success',
          '',
          `Sitemap: ${origin}/sitemap.xml`,
          '',
        ].join('\n'),
      });
      this.emitFile({
        type: 'asset',
        fileName: 'sitemap.xml',
        source: [
          '<?xml version="1.0" encoding="UTF-8"?>',
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
          ...PAGES.map(
            (p) =>
              `  <url><loc>${escape(`${origin}${p.path}`)}</loc><priority>${p.priority}</priority></url>`,
          ),
          '</urlset>',
          '',
        ].join('\n'),
      });
    },
  };
}
