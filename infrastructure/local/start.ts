/**
 * `npm start`: the whole product on this machine, at one URL, with no AWS account, Docker or API key.
 * Loads `.env` when present, keeps data in `.local/`, stops every child on Ctrl-C / SIGTERM.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalStackError } from './support/errors';
import { createPartLog } from './support/log';
import { killLeftoverChildren } from './support/pids';
import { portsFromEnv } from './support/settings';
import { REPO_ROOT, startLocalStack } from './stack';

const log = createPartLog('stack');
const envFile = join(REPO_ROOT, '.env');
if (existsSync(envFile)) {
  process.loadEnvFile(envFile);
  log.info('loaded .env');
}
const dataDir = join(REPO_ROOT, '.local');
mkdirSync(dataDir, { recursive: true });
const leftovers = killLeftoverChildren(dataDir);
if (leftovers) log.info(`ended ${leftovers} process(es) left behind by an earlier run`);

// Every function runs in this one process, invocations overlapping, like one execution environment of Lambda Managed
// Instances: the variable makes the local runtime give each invocation its own InvokeStore context, where Powertools
// keeps that invocation's log context (function name, request id) and keys.
process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';

const handlerEnvFile = join(dataDir, 'handler-env.json');
let stopping = false;
try {
  const stack = await startLocalStack({
    ports: portsFromEnv(process.env),
    dataDir,
    withSite: true,
    env: { ...process.env },
  });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping…`);
    rmSync(handlerEnvFile, { force: true });
    void stack.stop().then(() => {
      log.info('stopped');
      process.exit(0);
    });
  };
  // If whoever started us dies without passing a signal on (npm does not always forward SIGTERM), stop too,
  // instead of living on as an orphan that holds the ports.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown('parent exited');
  }, 1_000).unref();
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  // `npm run invoke` runs one handler against this stack: it needs the same environment the handlers have here.
  writeFileSync(handlerEnvFile, JSON.stringify(stack.env, null, 2));
  log.info('');
  log.info(`Headshot Studio is running at ${stack.siteUrl}`);
  log.info(`API ${stack.siteUrl}/api (gateway ${stack.gatewayUrl}) · data in .local/ · Ctrl-C to stop`);
  if (stack.inboxUrl) log.info(`Mail inbox ${stack.inboxUrl} (every e-mail the app sends lands here)`);
} catch (error) {
  if (error instanceof LocalStackError) {
    log.error(error.message);
    log.error(`Fix: ${error.fix}`);
  } else {
    log.error((error as Error).stack ?? String(error));
  }
  process.exit(1);
}
