import { fileURLToPath } from 'node:url';
import { createServer, type Logger, type Plugin } from 'vite';
import type { PartLog } from '../../support/log';
import type { RuntimeConfig } from './runtime-config';

/**
 * Serves `/config.json` from memory: the same runtime configuration file the cloud writes next to index.html at
 * deploy, so one frontend build works on every stage.
 */
function runtimeConfigPlugin(config: RuntimeConfig): Plugin {
  const body = JSON.stringify(config, null, 2);
  return {
    name: 'headshot-studio-runtime-config',
    configureServer(server) {
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('cache-control', 'no-store');
        res.end(body);
      });
    },
  };
}

function prefixedLogger(log: PartLog): Logger {
  const warned = new Set<string>();
  let errorLogged = false;
  return {
    info: (msg) => log.info(msg),
    warn: (msg) => log.info(msg),
    warnOnce: (msg) => {
      if (!warned.has(msg)) log.info(msg);
      warned.add(msg);
    },
    error: (msg) => {
      errorLogged = true;
      log.error(msg);
    },
    clearScreen: () => undefined,
    hasErrorLogged: () => errorLogged,
    hasWarned: false,
  };
}

/**
 * Runs `create` and takes back the process's SIGTERM and stdin-end listeners it added. Vite's dev server registers
 * its own, which close Vite and call `process.exit()` at once: on `npm start`'s SIGTERM the process would end half-way
 * through the stack's stop, leaving DynamoDB Local, s3rver and cognito-local running. Whoever started the stack
 * (start.ts, the test setup) decides when the process ends.
 */
async function withoutExitListeners<T>(create: () => Promise<T>): Promise<T> {
  const sigterm = new Set(process.listeners('SIGTERM'));
  const stdinEnd = new Set(process.stdin.listeners('end'));
  try {
    return await create();
  } finally {
    for (const listener of process.listeners('SIGTERM'))
      if (!sigterm.has(listener)) process.off('SIGTERM', listener);
    for (const listener of process.stdin.listeners('end'))
      if (!stdinEnd.has(listener)) process.stdin.off('end', listener as (...args: unknown[]) => void);
  }
}

/**
 * Starts the Vite dev server for the SPA on `localhost:<port>` with `/api/*` proxied to the local gateway (the site
 * calls its own origin; CloudFront does the same routing in the cloud, so there is no CORS).
 */
export async function startSite(options: {
  port: number;
  gatewayUrl: string;
  runtimeConfig: RuntimeConfig;
  log: PartLog;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const server = await withoutExitListeners(() =>
    createServer({
      configFile: fileURLToPath(new URL('../../../../frontend/vite.config.ts', import.meta.url)),
      customLogger: prefixedLogger(options.log),
      plugins: [runtimeConfigPlugin(options.runtimeConfig)],
      server: {
        port: options.port,
        strictPort: true,
        host: 'localhost',
        proxy: { '/api': { target: options.gatewayUrl, changeOrigin: false, xfwd: true } },
      },
    }),
  );
  await server.listen();
  return { url: `http://localhost:${options.port}`, stop: () => server.close() };
}
