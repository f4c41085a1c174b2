import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { RuntimeConfig } from '../../infrastructure/local/stack';
import { REPO_ROOT } from '../../infrastructure/local/stack';

/** A production build of the SPA served on loopback the way CloudFront serves it in the cloud. */
export interface PreviewSite {
  /** `http://localhost:<port>` */
  url: string;
  stop(): Promise<void>;
}

/**
 * `vite build` of `frontend/vite.config.ts` into `outDir` (a manifest, no source maps), as production: the same
 * bundle whether the bench (no NODE_ENV) or a vitest test file (NODE_ENV=test) builds it.
 *
 * @returns the build's duration, ms
 */
export async function buildSite(outDir: string): Promise<number> {
  const { build } = await import('vite');
  const started = Date.now();
  // Vite builds with the NODE_ENV it finds, and vitest sets `test`: the e2e tests then got React's development
  // build (StrictMode's doubled effects, its warnings) instead of what `npm run build` ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(REPO_ROOT, 'frontend/vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return Date.now() - started;
}

/**
 * Serves a production build (`outDir`, from {@link buildSite}) with `vite preview` on `localhost:<port>`: static
 * files with the SPA fallback, `/config.json` written beside index.html (as the stack's deploy writes it) and
 * `/api/*` proxied to the local gateway (CloudFront's second origin in the cloud).
 */
export async function startPreviewSite(options: {
  outDir: string;
  port: number;
  gatewayUrl: string;
  runtimeConfig: RuntimeConfig;
}): Promise<PreviewSite> {
  const { preview } = await import('vite');
  writeFileSync(join(options.outDir, 'config.json'), JSON.stringify(options.runtimeConfig, null, 2));
  const server = await preview({
    configFile: join(REPO_ROOT, 'frontend/vite.config.ts'),
    logLevel: 'silent',
    build: { outDir: options.outDir },
    preview: {
      port: options.port,
      strictPort: true,
      host: 'localhost',
      proxy: { '/api': { target: options.gatewayUrl, changeOrigin: false, xfwd: true } },
    },
  });
  return {
    url: `http://localhost:${options.port}`,
    stop: () => server.close(),
  };
}

/**
 * The local stack's ports for a bench run: the preview site on `site` (fixed before the stack starts, as the buckets'
 * CORS allow that origin) and every other service on a free port the OS picks.
 */
export function benchStackPorts(site: number) {
  return { site, gateway: 0, lambda: 0, stepfunctions: 0, dynamodb: 0, s3: 0, cognito: 0, checkout: 0 };
}
