import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSite } from './site';

/** Gzip bytes of a set of built files. */
export interface AssetSet {
  /** Asset paths as the page references them (`/assets/index-abc.js`). */
  files: string[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Uncompressed bytes of the same files. */
  rawBytes: number;
}

/** What the production build of the SPA sends. */
export interface FrontendFigures {
  /** What `/` loads before it can hydrate ({@link initialAssets}). */
  initial: AssetSet;
  /** Each lazily loaded route chunk (a dynamic `import()`), with the chunks and CSS it adds to the initial set. */
  lazy: ({ name: string } & AssetSet)[];
  /** Every JavaScript file of the build, gzipped one by one and summed. */
  allJsGzipBytes: number;
  buildMs: number;
}

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const gzipBytes = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

function assetSet(outDir: string, files: Iterable<string>): AssetSet {
  const list = [...new Set(files)];
  let js = 0;
  let css = 0;
  let raw = 0;
  for (const file of list) {
    const path = join(outDir, file.replace(/^\//, ''));
    raw += readFileSync(path).length;
    if (file.endsWith('.css')) css += gzipBytes(path);
    else js += gzipBytes(path);
  }
  return { files: list, jsGzipBytes: js, cssGzipBytes: css, rawBytes: raw };
}

/**
 * The files `/` loads before it can hydrate, read from the build's manifest: the entry (`boot.ts`, index.html's module
 * script), the chunks it imports statically, and the chunks it imports dynamically at once (`main.tsx`, the app) with
 * everything those import statically; plus their stylesheets (the prerendered pages carry the entry's inline, which
 * still counts). Lazily loaded routes and components are not part of it.
 */
export function initialAssets(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue;
    visit(key);
    for (const started of chunk.dynamicImports ?? []) visit(started);
  }
  return [...files].map((file) => `/${file}`);
}

/**
 * `vite build` of `frontend/vite.config.ts` into `outDir` (a temporary directory, with a manifest and without source
 * maps), then the gzip -9 bytes of what `/` loads first and of each lazy route chunk.
 */
export async function benchFrontend(outDir: string): Promise<FrontendFigures> {
  const buildMs = await buildSite(outDir);
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const initialFiles = initialAssets(manifest);
  const initial = assetSet(outDir, initialFiles);
  const loaded = new Set(initialFiles.map((f) => f.replace(/^\//, '')));
  const lazy = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isDynamicEntry && !loaded.has(chunk.file))
    .map(([key, chunk]) => {
      // The chunk, the chunks it imports statically, and their CSS: whatever the initial page has not loaded yet.
      const files = new Set<string>();
      const visit = (k: string) => {
        const c = manifest[k];
        if (!c || files.has(c.file)) return;
        if (!loaded.has(c.file)) files.add(c.file);
        for (const css of c.css ?? []) if (!loaded.has(css)) files.add(css);
        for (const imported of c.imports ?? []) visit(imported);
      };
      visit(key);
      return { name: chunk.src ?? chunk.name ?? key, ...assetSet(outDir, files) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const allJs = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
  const allJsGzipBytes = allJs.reduce((sum, f) => sum + gzipBytes(join(outDir, 'assets', f)), 0);
  return { initial, lazy, allJsGzipBytes, buildMs };
}
