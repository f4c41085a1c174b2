import { fileURLToPath } from 'node:url';
import {
  DescribeExecutionCommand,
  InvalidOutput,
  InvalidToken,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  StopExecutionCommand,
  TaskDoesNotExist,
  TaskTimedOut,
} from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { createLambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import type { LocalLog } from '../../infrastructure/local/support/log';
import { useLocalStepFunctions } from '../helpers/local-step-functions';
import {
  CALLBACK_WORKER_CALLS,
  type CallbackWorkerEvent,
} from '../fixtures/local-stack/functions/callback-worker';

/*
 * The callback pattern of the local Step Functions service (`lambda:invoke.waitForTaskToken`), driven by the real
 * SFNClient: a Map of slots each waiting in line as a callback Task, answered with SendTaskSuccess/SendTaskFailure/
 * SendTaskHeartbeat, timed out, or cut off by StopExecution. No assertion depends on timing: timeouts only decide
 * how long a test waits.
 */

const fixtures = fileURLToPath(new URL('../fixtures/local-stack/', import.meta.url));
const log: LocalLog = { info: () => undefined, error: () => undefined };

const local = useLocalStepFunctions({
  runtime: createLambdaRuntime([{ name: 'callback-worker', handler: 'callback-worker' }], {
    functionsDir: `${fixtures}functions`,
  }),
  stateMachinesDir: `${fixtures}callback-statemachines`,
  substitutions: {
    CallbackWorkerFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:callback-worker',
  },
  log,
});
const { start, settled } = local;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker's calls for `executionArn`, once there are at least `count` of them (in call order). */
async function calls(executionArn: string, count: number): Promise<CallbackWorkerEvent[]> {
  for (;;) {
    const all =
      (globalThis as Record<symbol, CallbackWorkerEvent[] | undefined>)[CALLBACK_WORKER_CALLS] ?? [];
    const mine = all.filter((call) => call.execution === executionArn);
    if (mine.length >= count) return mine;
    await pause(20);
  }
}

/** The token the worker got for `slot` (its latest attempt). */
const tokenOf = (list: CallbackWorkerEvent[], slot: string) =>
  list.findLast((c) => c.slot === slot)!.taskToken;

const succeed = (taskToken: string, output: unknown) =>
  local.sfn.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) }));

describe('lambda:invoke.waitForTaskToken', () => {
  it('gives each Map iteration its own token and continues with SendTaskSuccess output', async () => {
    const arn = await start('slots', { slots: ['a', 'b', 'c'], timeoutSeconds: 60 });
    const list = await calls(arn, 3);
    expect(new Set(list.map((c) => c.taskToken)).size).toBe(3);
    expect(list.map((c) => c.slot).sort()).toEqual(['a', 'b', 'c']);
    // Still waiting: the worker's return value does not complete the Task.
    expect((await local.sfn.send(new DescribeExecutionCommand({ executionArn: arn }))).status).toBe(
      'RUNNING',
    );
    for (const slot of ['c', 'a', 'b']) await succeed(tokenOf(list, slot), { delivered: slot });
    const execution = await settled(arn);
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toEqual([
      { delivered: 'a' },
      { delivered: 'b' },
      { delivered: 'c' },
    ]);
  });

  it('routes SendTaskFailure to Retry (with a fresh token) and Catch', async () => {
    const arn = await start('slots', { slots: ['a', 'b', 'c'], timeoutSeconds: 60 });
    const first = await calls(arn, 3);
    await local.sfn.send(
      new SendTaskFailureCommand({
        taskToken: tokenOf(first, 'a'),
        error: 'ProviderRefused',
        cause: 'too busy',
      }),
    );
    await local.sfn.send(new SendTaskFailureCommand({ taskToken: tokenOf(first, 'b') }));
    await local.sfn.send(new SendTaskFailureCommand({ taskToken: tokenOf(first, 'c'), error: 'Retryable' }));
    const retried = await calls(arn, 4);
    const retryToken = tokenOf(retried, 'c');
    expect(retryToken).not.toBe(tokenOf(first, 'c'));
    await succeed(retryToken, { delivered: 'c' });
    const execution = await settled(arn);
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toEqual([
      { refunded: 'a', error: { Error: 'ProviderRefused', Cause: 'too busy' } },
      // A failure without error or cause reaches the Catch as nulls, as in AWS.
      { refunded: 'b', error: { Error: null, Cause: null } },
      { delivered: 'c' },
    ]);
  });

  it('fails the Task when the function itself fails, with the function error name', async () => {
    const arn = await start('slots', { slots: ['boom'], timeoutSeconds: 60 });
    const execution = await settled(arn);
    const [refund] = JSON.parse(execution.output!) as [{ error: { Error: string; Cause: string } }];
    expect(refund.error.Error).toBe('WorkerError');
    expect(JSON.parse(refund.error.Cause)).toMatchObject({ errorType: 'WorkerError' });
  });

  it('times a Task out after its TimeoutSecondsPath and refuses its token afterwards', async () => {
    const arn = await start('slots', { slots: ['a', 'b', 'c'], timeoutSeconds: 1 });
    const list = await calls(arn, 3);
    const execution = await settled(arn);
    expect(execution.status).toBe('SUCCEEDED');
    const refunds = JSON.parse(execution.output!) as { error: { Error: string } }[];
    expect(refunds.map((r) => r.error.Error)).toEqual(['States.Timeout', 'States.Timeout', 'States.Timeout']);
    await expect(succeed(tokenOf(list, 'a'), {})).rejects.toThrow(TaskTimedOut);
  });

  it('refuses a second answer to the same token', async () => {
    const arn = await start('slots', { slots: ['a'], timeoutSeconds: 60 });
    const token = tokenOf(await calls(arn, 1), 'a');
    expect(await local.sfn.send(new SendTaskHeartbeatCommand({ taskToken: token }))).toMatchObject({});
    await succeed(token, { delivered: 'a' });
    const again = succeed(token, { delivered: 'again' });
    await expect(again).rejects.toThrow(TaskTimedOut);
    await expect(again).rejects.toThrow("Task Timed Out: 'Provided task does not exist anymore'");
    await expect(local.sfn.send(new SendTaskFailureCommand({ taskToken: token }))).rejects.toThrow(
      TaskTimedOut,
    );
    expect(JSON.parse((await settled(arn)).output!)).toEqual([{ delivered: 'a' }]);
  });

  it('refuses the tokens of a stopped execution', async () => {
    const arn = await start('slots', { slots: ['a', 'b'], timeoutSeconds: 60 });
    const list = await calls(arn, 2);
    await local.sfn.send(new StopExecutionCommand({ executionArn: arn }));
    expect((await settled(arn)).status).toBe('ABORTED');
    await expect(succeed(tokenOf(list, 'a'), {})).rejects.toThrow(TaskTimedOut);
    await expect(
      local.sfn.send(new SendTaskHeartbeatCommand({ taskToken: tokenOf(list, 'b') })),
    ).rejects.toThrow(TaskTimedOut);
  });

  it('refuses malformed and unknown tokens and output that is not JSON, keeping the token', async () => {
    await expect(succeed('FakeTaskToken', {})).rejects.toThrow(InvalidToken);
    await expect(succeed(`AQ${'A'.repeat(128)}`, {})).rejects.toThrow(TaskDoesNotExist);
    const arn = await start('slots', { slots: ['a'], timeoutSeconds: 60 });
    const token = tokenOf(await calls(arn, 1), 'a');
    await expect(
      local.sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{nope' })),
    ).rejects.toThrow(InvalidOutput);
    await succeed(token, 'fine');
    expect(JSON.parse((await settled(arn)).output!)).toEqual(['fine']);
  });

  it('fails a Task with States.HeartbeatTimeout when no heartbeat comes within HeartbeatSeconds', async () => {
    const arn = await start('heartbeat', { slot: 'a' });
    const token = tokenOf(await calls(arn, 1), 'a');
    const execution = await settled(arn);
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('States.HeartbeatTimeout');
    await expect(local.sfn.send(new SendTaskHeartbeatCommand({ taskToken: token }))).rejects.toThrow(
      TaskTimedOut,
    );
  });

  it('does not resolve $$.Task.Token outside a callback Task', async () => {
    const execution = await settled(await start('plain-token', {}));
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('States.Runtime');
  });
});
