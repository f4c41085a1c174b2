import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin, ResolvedConfig } from 'vite';
import type * as Prerender from '../src/app/prerender';
import { PRERENDERED_QUERIES_ID } from '../src/lib/prerendered-queries';
import { legalEntityFromEnv, writePrerenderedWith } from './prerendered-with';

const frontendRoot = fileURLToPath(new URL('..', import.meta.url));
/**
 * Where the server build of the prerender entry goes: inside the repository, so its bare imports (react, react-dom,
 * react-router) resolve from `node_modules` when Node imports it; removed after use.
 */
const SERVER_OUT_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/headshot-prerender', import.meta.url),
);

/** The prerendered pages other than `/`, each served `<name>.html` (app/prerender.tsx `PRERENDERED_PAGES`). */
const PAGES_BY_NAME = new Set(['/pricing', '/terms', '/privacy', '/refunds']);

/** The empty page every other path of the SPA is served (the build's `index.html` before prerendering). */
export const SPA_SHELL = 'app.html';

/**
 * The file a path without a file extension is served, as the site's CloudFront function maps it
 * (infrastructure/constructs/site.ts, `SPA_ROUTING_FUNCTION`): the prerendered pages by their path, everything else
 * the empty shell the SPA renders into.
 */
export function pageFileOf(path: string): string {
  const page = path.replace(/\/+$/, '');
  if (page === '') return 'index.html';
  if (PAGES_BY_NAME.has(page)) return `${page.slice(1)}.html`;
  return SPA_SHELL;
}

/**
 * The page's own stylesheets (`<link rel="stylesheet" href="/assets/…css">`) written into its head as `<style>`: the
 * prerendered pages then paint from their HTML alone, without waiting for a second request (the site's
 * Content-Security-Policy allows inline styles). The SPA shell keeps the link, which the browser caches.
 */
export function inlineStylesheets(html: string, outDir: string): string {
  return html.replace(
    /<link rel="stylesheet"[^>]*\shref="\/(assets\/[^"]+\.css)"[^>]*>/g,
    (_, file: string) => {
      const css = readFileSync(join(outDir, file), 'utf8');
      return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
    },
  );
}

/** The placeholder `index.html` gives the app's markup (frontend/index.html). */
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Static HTML for the landing and pricing pages (docs/architecture.md, site): after the client build, the prerender
 * entry (`frontend/src/app/prerender.tsx`: the real components, router and providers) is built for Node, and each
 * public page is rendered into a copy of the built `index.html` — `/` into `index.html`, `/pricing` into
 * `pricing.html` — with its title and canonical link in the head, its stylesheet inline ({@link inlineStylesheets})
 * and its scripts at low fetch priority. The browser paints that HTML before any script runs; `boot.ts` then loads
 * `main.tsx`, which hydrates it. Every other path gets the empty shell `app.html` ({@link pageFileOf}; `vite
 * preview` maps paths the same way), and `/api` and `/config.json` are served as before.
 *
 * Build-time values: `SITE_URL` (the public origin of canonical URLs; default `http://localhost:5173`),
 * `SUPPORT_EMAIL` (the address the footers show; default `support@headshot.studio`, as the stack's) and the company
 * the legal pages name, `LEGAL_NAME`, `LEGAL_ADDRESS`, `LEGAL_REGISTRATION`, `LEGAL_JURISDICTION` (all or none; none:
 * the Draft pages). What the pages were rendered with is written beside them (`prerendered-with.json`), and a
 * production deploy refuses a build whose company or support address differs from its context
 * (infrastructure/constructs/legal-entity.ts). A page whose runtime `/config.json` differs still hydrates: React
 * re-renders the differing text.
 *
 * @throws Error at build when the `LEGAL_*` variables are incomplete or invalid
 */
export function prerenderPlugin(
  siteUrl = process.env.SITE_URL ?? 'http://localhost:5173',
  supportEmail = process.env.SUPPORT_EMAIL ?? 'support@headshot.studio',
  legalEntity = legalEntityFromEnv(process.env),
): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'headshot-studio-prerender',
    apply: (_, env) => (env.command === 'build' && !env.isSsrBuild) || env.isPreview === true,
    configResolved(resolved) {
      config = resolved;
    },
    // The built pages start from `boot.ts`, which loads the app (`main.tsx`) once the prerendered HTML has been
    // painted. The dev server keeps loading `main.tsx` straight from index.html.
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace('src="/src/main.tsx"', 'src="/src/boot.ts"'),
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [path = '/', query] = (req.url ?? '/').split('?');
        const last = path.slice(path.lastIndexOf('/') + 1);
        if (!path.startsWith('/api/') && !last.includes('.')) {
          req.url = `/${pageFileOf(path)}${query === undefined ? '' : `?${query}`}`;
        }
        next();
      });
    },
    async closeBundle() {
      if (!config || config.build.ssr) return;
      const outDir = config.build.outDir;
      const { build } = await import('vite');
      const { default: react } = await import('@vitejs/plugin-react');
      await build({
        configFile: false,
        root: frontendRoot,
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: 'src/app/prerender.tsx',
          outDir: SERVER_OUT_DIR,
          emptyOutDir: true,
          sourcemap: false,
          minify: false,
        },
      });
      try {
        const entry = pathToFileURL(join(SERVER_OUT_DIR, 'prerender.js')).href;
        const { prerender, PRERENDERED_PAGES } = (await import(entry)) as typeof Prerender;
        const template = readFileSync(join(outDir, 'index.html'), 'utf8');
        if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
        writeFileSync(join(outDir, SPA_SHELL), template);
        const origin = siteUrl.replace(/\/+$/, '');
        const runtimeConfig = {
          region: 'build',
          userPoolId: 'build',
          userPoolClientId: 'build',
          apiBase: '/api',
          supportEmail,
          legalEntity,
          stage: 'build',
        };
        writePrerenderedWith(outDir, { legalEntity, supportEmail });
        // The boot script starts the app only after the page has painted, so it need not compete with the page's
        // images for the network either.
        const inlined = inlineStylesheets(template, outDir)
          .replace(/<script type="module"/g, '<script type="module" fetchpriority="low"')
          .replace(/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"');
        for (const page of PRERENDERED_PAGES) {
          const { body, head, queries } = await prerender(page.path, runtimeConfig, origin);
          const data = `<script type="application/json" id="${PRERENDERED_QUERIES_ID}">${queries}</script>`;
          const html = inlined
            .replace(/<title>[^<]*<\/title>/, () => head)
            .replace(ROOT_ELEMENT, () => `<div id="root">${body}</div>${data}`);
          writeFileSync(join(outDir, page.file), html);
        }
      } finally {
        rmSync(SERVER_OUT_DIR, { recursive: true, force: true });
      }
    },
  };
}
