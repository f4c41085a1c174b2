import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { prerenderPlugin } from './scripts/prerender-plugin';
import { seoPlugin } from './seo-plugin';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SPA's build. `npm start` runs this config through Vite's dev server (infrastructure/local/stack.ts adds the
 * `/api` proxy and the runtime `/config.json`); `npm run build` writes `dist/site`, which the CDK Site construct
 * deploys. No secret ever reaches the bundle: runtime settings come from `/config.json`.
 */
export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), seoPlugin(), prerenderPlugin()],
  build: {
    outDir: fileURLToPath(new URL('../dist/site', import.meta.url)),
    emptyOutDir: true,
    // Kept in dist/site for debugging, never deployed (the site construct excludes *.map), so no bundle points at one.
    sourcemap: 'hidden',
    // `<link rel="modulepreload">` is a hint: the few browsers without it (Safari before 17) load the same modules as
    // they import them, so the first page carries no polyfill for it.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Vite's dynamic-import helper in a chunk of its own: were it left in the entry (`boot.ts`), every lazy chunk
        // would import the entry and list its stylesheet among the files to load with it, which the prerendered
        // pages carry inline (scripts/prerender-plugin.ts), so it would be fetched a second time. React, React DOM,
        // the router and the icons' common code in two chunks (React DOM, the rest): every page needs them, and as
        // several small chunks they compress worse.
        codeSplitting: {
          groups: [
            { name: 'preload-helper', test: /vite\/preload-helper/ },
            // React DOM apart from the rest: the boot entry evaluates it in a task of its own (boot.ts).
            { name: 'react-dom', test: /node_modules\/(?:react|react-dom|scheduler)\// },
            {
              name: 'framework',
              test: /node_modules\/(?:(?:react-router|react-router-dom)\/|lucide-react\/dist\/esm\/(?:createLucideIcon|Icon|defaultAttributes|shared\/))/,
            },
          ],
        },
      },
      // The app's own modules run nothing when imported (CSS and `main.tsx`, which `boot.ts` imports to start the
      // app, aside): a barrel re-export of an unused component no longer drags its libraries (sonner, zod) into the
      // first page's chunk.
      treeshake: {
        moduleSideEffects: (id) =>
          !id.includes('/frontend/src/') || id.endsWith('.css') || id.endsWith('/frontend/src/main.tsx'),
      },
    },
  },
  server: { host: 'localhost' },
});
