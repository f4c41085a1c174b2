import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LambdaFunctionError, type LambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import type { LocalLog } from '../../infrastructure/local/support/log';
import {
  executionEndedRule,
  matchesPattern,
  startEventBus,
} from '../../infrastructure/local/stand-ins/eventbridge/bus';
import {
  createAsyncInvoker,
  type InvocationRecord,
} from '../../infrastructure/local/stand-ins/lambda/async-invoke';
import type { Execution } from '../../infrastructure/local/stand-ins/step-functions/executions';
import {
  executionStatusChangeEvent,
  MAX_EVENT_PAYLOAD_BYTES,
} from '../../infrastructure/local/stand-ins/step-functions/status-events';
import { testTempDir } from '../helpers/temp-dir';

/*
 * The local EventBridge path of an ended execution: the status-change event the Step Functions stand-in builds, the
 * cloud rule's pattern matched against it, and Lambda's asynchronous retries ending in the dead-letter file.
 */

const quiet: LocalLog = { info: () => undefined, error: () => undefined };
const at = { region: 'us-east-1', accountId: '000000000000' };
const machineArn = (name: string) => `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`;

function execution(fields: Partial<Execution> = {}): Execution {
  return {
    executionArn: 'arn:aws:states:us-east-1:000000000000:execution:generation:01J0GEN',
    stateMachineArn: machineArn('generation'),
    name: '01J0GEN',
    input: '{"generationId":"01J0GEN","userId":"u-1"}',
    status: 'FAILED',
    startDate: Date.UTC(2026, 10, 26, 14, 0, 0, 123),
    stopDate: Date.UTC(2026, 10, 26, 14, 0, 5, 456),
    error: 'CompensationFailed',
    cause: 'Refunding or marking the failed generation did not succeed after retries.',
    abort: () => undefined,
    ...fields,
  };
}

/** A runtime whose one function fails its first `failures` runs; records every run. */
function flakyRuntime(failures: number) {
  const runs: unknown[] = [];
  const runtime: LambdaRuntime = {
    has: (name) => name === 'generation-execution-ended',
    functionArn: (name) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    invoke(name, event) {
      runs.push(event);
      if (runs.length <= failures) {
        return Promise.reject(
          new LambdaFunctionError(name, { errorType: 'Boom', errorMessage: `run ${runs.length}`, trace: [] }),
        );
      }
      return Promise.resolve({ compensated: true });
    },
  };
  return { runtime, runs };
}

describe('the Step Functions Execution Status Change event', () => {
  it('has the envelope and detail Step Functions sends to EventBridge', () => {
    expect(executionStatusChangeEvent(execution(), at)).toEqual({
      version: '0',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      'detail-type': 'Step Functions Execution Status Change',
      source: 'aws.states',
      account: '000000000000',
      time: '2026-11-26T14:00:05Z',
      region: 'us-east-1',
      resources: ['arn:aws:states:us-east-1:000000000000:execution:generation:01J0GEN'],
      detail: {
        executionArn: 'arn:aws:states:us-east-1:000000000000:execution:generation:01J0GEN',
        stateMachineArn: machineArn('generation'),
        name: '01J0GEN',
        status: 'FAILED',
        startDate: Date.UTC(2026, 10, 26, 14, 0, 0, 123),
        stopDate: Date.UTC(2026, 10, 26, 14, 0, 5, 456),
        input: '{"generationId":"01J0GEN","userId":"u-1"}',
        inputDetails: { included: true },
        output: null,
        outputDetails: null,
        error: 'CompensationFailed',
        cause: 'Refunding or marking the failed generation did not succeed after retries.',
      },
    });
  });

  it('carries the output of a SUCCEEDED execution, and leaves out an input over 248 KiB', () => {
    const succeeded = executionStatusChangeEvent(
      execution({
        status: 'SUCCEEDED',
        output: '{"status":"succeeded"}',
        error: undefined,
        cause: undefined,
      }),
      at,
    );
    expect(succeeded.detail).toMatchObject({
      output: '{"status":"succeeded"}',
      outputDetails: { included: true },
      error: null,
    });
    const big = executionStatusChangeEvent(
      execution({ input: JSON.stringify({ pad: 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES) }) }),
      at,
    );
    expect(big.detail).toMatchObject({ input: null, inputDetails: { included: false } });
  });
});

describe('the execution-ended rule on the local bus', () => {
  const rule = executionEndedRule({ region: 'us-east-1', deadLetterDir: '/nonexistent', log: quiet });

  it.each(['FAILED', 'TIMED_OUT', 'ABORTED'] as const)(
    'matches a generation execution that ended %s',
    (status) => {
      expect(matchesPattern(rule.pattern, executionStatusChangeEvent(execution({ status }), at))).toBe(true);
    },
  );

  it('does not match a running or succeeded execution, nor another state machine', () => {
    for (const status of ['RUNNING', 'SUCCEEDED'] as const) {
      expect(matchesPattern(rule.pattern, executionStatusChangeEvent(execution({ status }), at))).toBe(false);
    }
    const other = execution({ stateMachineArn: machineArn('other') });
    expect(matchesPattern(rule.pattern, executionStatusChangeEvent(other, at))).toBe(false);
  });

  it('refuses content filters it does not run rather than matching nothing', () => {
    expect(() => matchesPattern({ source: [{ prefix: 'aws.' } as never] }, { source: 'aws.states' })).toThrow(
      /only exact values/,
    );
  });
});

describe("Lambda's asynchronous invocation, locally", () => {
  const settings = { retryAttempts: 2, maxEventAgeSeconds: 3600 };

  it('runs a failing function 3 times, then puts its invocation record on the on-failure destination', async () => {
    const { runtime, runs } = flakyRuntime(99);
    const records: InvocationRecord[] = [];
    const invoker = createAsyncInvoker(runtime, { log: quiet, retryDelaysMs: [0, 0] });
    invoker.invoke('generation-execution-ended', { n: 1 }, settings, async (r) => void records.push(r));
    await invoker.idle();
    expect(runs).toHaveLength(3);
    expect(records).toEqual([
      {
        version: '1.0',
        timestamp: expect.any(String),
        requestContext: {
          requestId: expect.any(String),
          functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:generation-execution-ended:$LATEST',
          condition: 'RetriesExhausted',
          approximateInvokeCount: 3,
        },
        requestPayload: { n: 1 },
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        responsePayload: { errorType: 'Boom', errorMessage: 'run 3', trace: [] },
      },
    ]);
  });

  it('stops retrying once a run succeeds', async () => {
    const { runtime, runs } = flakyRuntime(1);
    const records: InvocationRecord[] = [];
    const invoker = createAsyncInvoker(runtime, { log: quiet, retryDelaysMs: [0, 0] });
    invoker.invoke('generation-execution-ended', {}, settings, async (r) => void records.push(r));
    await invoker.idle();
    expect(runs).toHaveLength(2);
    expect(records).toEqual([]);
  });

  it('gives an event that would outlive its maximum age to the destination as EventAgeExceeded', async () => {
    const { runtime } = flakyRuntime(99);
    const records: InvocationRecord[] = [];
    const invoker = createAsyncInvoker(runtime, { log: quiet, retryDelaysMs: [120_000] });
    invoker.invoke(
      'generation-execution-ended',
      {},
      { retryAttempts: 2, maxEventAgeSeconds: 60 },
      async (r) => void records.push(r),
    );
    await invoker.idle();
    expect(records.map((r) => r.requestContext)).toEqual([
      expect.objectContaining({ condition: 'EventAgeExceeded', approximateInvokeCount: 1 }),
    ]);
  });

  it('hands an event still waiting for a retry to the destination when it stops, never dropping it', async () => {
    const { runtime, runs } = flakyRuntime(99);
    const records: InvocationRecord[] = [];
    const invoker = createAsyncInvoker(runtime, { log: quiet, retryDelaysMs: [60_000] });
    invoker.invoke('generation-execution-ended', {}, settings, async (r) => void records.push(r));
    while (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await invoker.stop();
    expect(runs).toHaveLength(1);
    expect(records.map((r) => r.requestContext.condition)).toEqual(['LocalStackStopped']);
  });

  it('refuses a function that does not exist at once, as the Invoke API does', () => {
    const invoker = createAsyncInvoker(flakyRuntime(0).runtime, { log: quiet });
    expect(() => invoker.invoke('nope', {}, settings, async () => undefined)).toThrow(/Function not found/);
  });
});

describe('the local bus end to end', () => {
  it('sends a FAILED generation execution to the compensator and its dead letter to <dir>/<function>.jsonl', async () => {
    const dir = testTempDir('dead-letter-');
    const lines: string[] = [];
    const log: LocalLog = { info: () => undefined, error: (line) => lines.push(line) };
    const { runtime, runs } = flakyRuntime(99);
    const bus = startEventBus({
      rules: [executionEndedRule({ region: 'us-east-1', deadLetterDir: dir, log })],
      invoker: createAsyncInvoker(runtime, { log, retryDelaysMs: [0, 0] }),
      log,
    });
    bus.put(executionStatusChangeEvent(execution({ status: 'SUCCEEDED', error: undefined }), at));
    bus.put(executionStatusChangeEvent(execution({ status: 'TIMED_OUT' }), at));
    await bus.idle();
    expect(runs).toHaveLength(3);
    const [record, ...more] = readFileSync(join(dir, 'generation-execution-ended.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as InvocationRecord);
    expect(more).toEqual([]);
    expect(record!.requestPayload).toMatchObject({ detail: { status: 'TIMED_OUT' } });
    expect(lines.filter((line) => line.startsWith('dead letter: generation-execution-ended'))).toHaveLength(
      1,
    );
    await bus.stop();
  });
});
