import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/paths';
import type { RuntimeConfig } from './runtime-config';

const VITE_CONFIG = join(REPO_ROOT, 'frontend/vite.config.ts');

/** A production build of the SPA served on loopback the way CloudFront serves it in the cloud. */
export interface PreviewSite {
  /** `http://localhost:<port>` */
  url: string;
  stop(): Promise<void>;
}

/**
 * `vite build` of `frontend/vite.config.ts` into `outDir` (with a manifest, without source maps), as `npm run build`
 * makes it for production, in a process of its own: the build gets `NODE_ENV=production` whatever the caller's is
 * (vitest sets `test`, and Vite would then bundle React's development build), and a caller starting the local stack
 * meanwhile keeps its own process for that.
 *
 * @returns the build's duration, ms
 * @throws {Error} with Vite's output when the build fails
 */
export function buildSite(outDir: string): Promise<number> {
  const started = Date.now();
  const args = ['build', '--config', VITE_CONFIG, '--mode', 'production', '--outDir', outDir];
  const child = spawn(
    join(REPO_ROOT, 'node_modules/.bin/vite'),
    [...args, '--emptyOutDir', '--manifest', '--sourcemap', 'false', '--logLevel', 'warn'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Date.now() - started)
        : reject(new Error(`vite build exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * Serves a production build (`outDir`) with `vite preview` on `localhost:<port>`: static files with the SPA fallback,
 * `/config.json` written beside index.html (as the stack's deploy writes it) and `/api/*` proxied to the local gateway
 * (CloudFront's second origin in the cloud).
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
    configFile: VITE_CONFIG,
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
