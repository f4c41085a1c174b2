import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvokeStore } from '@aws/lambda-invoke-store';
import { logger } from '../../functions/common/logger';
import { createLambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';

/*
 * The local runtime runs every function in one process with invocations overlapping. With AWS_LAMBDA_MAX_CONCURRENCY
 * set (what `npm start` does), each invocation gets its own InvokeStore context, so Powertools logs every line with
 * the function and request of the invocation that wrote it, not of whichever started last.
 */

const functionsDir = fileURLToPath(new URL('../fixtures/local-stack/functions', import.meta.url));
const runtime = createLambdaRuntime(
  [
    { name: 'first-function', handler: 'log-after-gate' },
    { name: 'second-function', handler: 'log-after-gate' },
  ],
  { functionsDir },
);

interface LogLine {
  message: string;
  function_name?: string;
  function_request_id?: string;
  tag?: string;
}

// The files of the unit project share a process (isolate: false), and the AWS SDK makes the process's invoke store on
// its first call, a single-invocation one while AWS_LAMBDA_MAX_CONCURRENCY is unset: this file starts from none, so
// the runtime makes the concurrent one, and leaves none behind (the package's reset, exposed by the unit project's
// AWS_LAMBDA_BENCHMARK_MODE).
beforeAll(() => InvokeStore._testing?.reset());
afterAll(() => InvokeStore._testing?.reset());

let lines: LogLine[];
let previous: string | undefined;
const level = logger.getLevelName();

beforeEach(() => {
  lines = [];
  previous = process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  // The unit project silences the logger; this test reads its lines.
  logger.setLogLevel('INFO');
  process.env.AWS_LAMBDA_MAX_CONCURRENCY = '8';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const text of String(chunk).split('\n')) {
      if (text.startsWith('{')) lines.push(JSON.parse(text) as LogLine);
    }
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (previous === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  else process.env.AWS_LAMBDA_MAX_CONCURRENCY = previous;
  logger.setLogLevel(level);
  globalThis.logGate = undefined;
  globalThis.logGateArrivals = undefined;
});

describe('local Lambda runtime: log context of overlapping invocations', () => {
  it('logs each line with the function and request id of its own invocation', async () => {
    let open!: () => void;
    globalThis.logGate = new Promise((resolve) => (open = resolve));
    const invocations = [
      runtime.invoke('first-function', { tag: 'a' }, { requestId: 'request-a' }),
      runtime.invoke('second-function', { tag: 'b' }, { requestId: 'request-b' }),
      runtime.invoke('first-function', { tag: 'c' }, { requestId: 'request-c' }),
    ];
    // Every invocation has set its context before any of them logs.
    await vi.waitFor(() => expect(globalThis.logGateArrivals).toBe(3));
    open();
    await Promise.all(invocations);

    const passed = lines.filter((line) => line.message === 'gate passed');
    expect(passed).toHaveLength(3);
    const byTag = Object.fromEntries(passed.map((line) => [line.tag, line]));
    expect(byTag.a).toMatchObject({ function_name: 'first-function', function_request_id: 'request-a' });
    expect(byTag.b).toMatchObject({ function_name: 'second-function', function_request_id: 'request-b' });
    expect(byTag.c).toMatchObject({ function_name: 'first-function', function_request_id: 'request-c' });
  });
});
