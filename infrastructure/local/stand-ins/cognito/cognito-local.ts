import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { spawn, type ChildProcess } from 'node:child_process';
import { startCognitoFront } from './refresh-front';
import { findFreePort, HOST, waitForPort } from '../../support/ports';
import type { PartLog } from '../../support/log';
import { stopChild } from '../../support/process';

/** A running cognito-local. */
export interface RunningCognito {
  /** The Cognito IdP endpoint, e.g. `http://127.0.0.1:9229`; also the issuer domain of its tokens. */
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Cognito trigger name → local Lambda function name (cognito-local's `TriggerFunctions`). */
export type CognitoTriggers = Partial<
  Record<
    'PreSignUp' | 'PostConfirmation' | 'PreTokenGeneration' | 'PostAuthentication' | 'CustomMessage',
    string
  >
>;

/**
 * Starts cognito-local in a child process. Its users and pools live in `dataDir/.cognito` between runs. The issuer
 * domain is pinned to `http://127.0.0.1:<port>` so tokens carry the same `iss` whichever host name a client used.
 * With `lambdaEndpoint` and `triggers`, cognito-local invokes our own trigger handlers through the local Lambda API.
 */
export async function startCognito(options: {
  port: number;
  dataDir: string;
  log: PartLog;
  lambdaEndpoint?: string;
  triggers?: CognitoTriggers;
}): Promise<RunningCognito> {
  const endpoint = `http://${HOST}:${options.port}`;
  const configDir = join(options.dataDir, '.cognito');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify(
      {
        LambdaClient: {
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          region: 'us-east-1',
          ...(options.lambdaEndpoint ? { endpoint: options.lambdaEndpoint } : {}),
        },
        TokenConfig: { IssuerDomain: endpoint },
        TriggerFunctions: options.triggers ?? {},
        UserPoolDefaults: { UsernameAttributes: ['email'] },
      },
      null,
      2,
    ),
  );
  // cognito-local listens on a port of its own; the public endpoint is a thin front that adds what it lacks.
  const innerPort = await findFreePort();
  const script = createRequire(import.meta.url).resolve('cognito-local/lib/bin/start.js');
  const child = spawn(process.execPath, [script], {
    cwd: options.dataDir,
    // cognito-local is built on AWS SDK v2; its end-of-support notice is not ours to act on.
    env: {
      ...process.env,
      PORT: String(innerPort),
      HOST,
      NODE_OPTIONS: '',
      AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.log.pipe(child.stdout);
  options.log.pipe(child.stderr, 'error');
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`cognito-local exited with code ${code} before it was ready`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(innerPort, 30_000, 'cognito-local'), exited]);
  const front = await startCognitoFront({ port: options.port, cognitoPort: innerPort });
  return {
    endpoint,
    process: child,
    stop: async () => {
      await front.stop();
      await stopChild(child);
    },
  };
}
