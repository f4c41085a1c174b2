import { fileURLToPath } from 'node:url';
import {
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  InvalidExecutionInput,
  ListExecutionsCommand,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLambdaRuntime,
  FunctionNotFoundError,
  type LambdaRuntime,
  type LocalFunction,
} from '../../infrastructure/local/stand-ins/lambda/runtime';
import type { LocalLog } from '../../infrastructure/local/support/log';
import { startLambdaServer, type LocalServer } from '../../infrastructure/local/stand-ins/lambda/invoke-api';
import { useLocalStepFunctions } from '../helpers/local-step-functions';

/*
 * The local Lambda Invoke API and Step Functions service, driven by the real AWS SDK SFNClient and by fetch (the
 * Invoke wire format cognito-local's Lambda client uses), against fixture handlers and ASL files. Each server
 * listens on a free port; no assertion depends on timing.
 */

const fixtures = fileURLToPath(new URL('../fixtures/local-stack/', import.meta.url));
const functionArn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
const functions: LocalFunction[] = [
  { name: 'echo', handler: 'echo' },
  { name: 'flaky', handler: 'flaky' },
  { name: 'sleep', handler: 'sleep', timeoutSeconds: 300 },
  { name: 'sleep-briefly', handler: 'sleep', timeoutSeconds: 1 },
];

const logLines: string[] = [];
const log: LocalLog = { info: (msg) => logLines.push(msg), error: (msg) => logLines.push(msg) };

const runtime: LambdaRuntime = createLambdaRuntime(functions, { functionsDir: `${fixtures}functions` });
let lambda: LocalServer;

beforeAll(async () => {
  lambda = await startLambdaServer({ port: 0, runtime, log });
});

afterAll(async () => {
  await lambda?.close();
});

const local = useLocalStepFunctions({
  runtime,
  stateMachinesDir: `${fixtures}statemachines`,
  substitutions: {
    EchoFunctionArn: functionArn('echo'),
    EchoFunctionName: 'echo',
    FlakyFunctionArn: functionArn('flaky'),
    SleepFunctionArn: functionArn('sleep'),
  },
  log,
});
const { start, settled } = local;

function invoke(name: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${lambda.url}/2015-03-31/functions/${encodeURIComponent(name)}/invocations`, {
    method: 'POST',
    headers,
    body,
  });
}

const outputOf = (execution: DescribeExecutionCommandOutput) =>
  JSON.parse(execution.output ?? 'null') as unknown;

describe('local Lambda runtime', () => {
  it('knows functions by name and by ARN, with or without a qualifier', () => {
    expect(runtime.has('echo')).toBe(true);
    expect(runtime.has(functionArn('echo'))).toBe(true);
    expect(runtime.has(`${functionArn('echo')}:$LATEST`)).toBe(true);
    expect(runtime.has('nope')).toBe(false);
  });

  it('rejects an unknown function with FunctionNotFoundError', async () => {
    await expect(runtime.invoke('nope', {})).rejects.toBeInstanceOf(FunctionNotFoundError);
  });
});

describe('local Lambda Invoke API', () => {
  it('answers a RequestResponse invocation with the handler result and a Lambda context', async () => {
    const res = await invoke('echo', JSON.stringify({ hello: 'world' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-amz-function-error')).toBeNull();
    const body = (await res.json()) as { echoed: unknown; context: Record<string, unknown> };
    expect(body.echoed).toEqual({ hello: 'world' });
    expect(body.context).toMatchObject({
      functionName: 'echo',
      invokedFunctionArn: functionArn('echo'),
      awsRequestId: res.headers.get('x-amzn-requestid'),
      memoryLimitInMB: '128',
    });
    expect(body.context.remainingTimeInMillis).toBeGreaterThan(0);
  });

  it('accepts a full ARN with a qualifier as FunctionName', async () => {
    const res = await invoke(`${functionArn('echo')}:$LATEST`, '{"n":1}');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { echoed: unknown; context: { invokedFunctionArn: string } };
    expect(body.echoed).toEqual({ n: 1 });
    expect(body.context.invokedFunctionArn).toBe(`${functionArn('echo')}:$LATEST`);
  });

  it('reports a thrown error as Lambda does: 200 with X-Amz-Function-Error and the error payload', async () => {
    const res = await invoke('flaky', JSON.stringify({ key: 'invoke-api-error', failures: 1 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-amz-function-error')).toBe('Unhandled');
    expect(await res.json()).toEqual({
      errorType: 'FlakyError',
      errorMessage: 'attempt 1 of invoke-api-error failed',
      trace: expect.arrayContaining([
        expect.stringContaining('FlakyError: attempt 1 of invoke-api-error failed'),
      ]),
    });
  });

  it('reports a handler that outlives its timeout as Sandbox.Timedout', async () => {
    const res = await invoke('sleep-briefly', JSON.stringify({ ms: 30_000 }));
    expect(res.headers.get('x-amz-function-error')).toBe('Unhandled');
    expect(await res.json()).toMatchObject({
      errorType: 'Sandbox.Timedout',
      errorMessage: expect.stringContaining('Task timed out after 1.00 seconds'),
    });
  });

  it('answers an unknown function with 404 ResourceNotFoundException in AWS shape', async () => {
    const res = await invoke('nope', '{}');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-amzn-errortype')).toBe('ResourceNotFoundException');
    expect(await res.json()).toEqual({ Type: 'User', Message: `Function not found: ${functionArn('nope')}` });
  });

  it('rejects a body that is not JSON with 400 InvalidRequestContentException', async () => {
    const res = await invoke('echo', '{not json');
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('InvalidRequestContentException');
  });

  it('accepts an Event invocation with 202 and no body', async () => {
    const res = await invoke('echo', '{}', { 'x-amz-invocation-type': 'Event' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });
});

describe('local Step Functions service', () => {
  it('serves the state machines with their definition substitutions applied', async () => {
    const machine = await local.sfn.send(
      new DescribeStateMachineCommand({ stateMachineArn: local.server.stateMachineArn('pipeline') }),
    );
    expect(machine).toMatchObject({
      stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:pipeline',
      name: 'pipeline',
      status: 'ACTIVE',
      type: 'STANDARD',
    });
    expect(machine.definition).toContain(`"FunctionName": "${functionArn('echo')}"`);
    expect(machine.definition).not.toContain('${');
    expect(() => local.server.stateMachineArn('nope')).toThrow(/No state machine "nope"/);
  });

  it('runs lambda:invoke, bare-ARN and inline Map Tasks to SUCCEEDED', async () => {
    const executionArn = await start(
      'pipeline',
      { greeting: 'hi', failures: 0, slots: ['a', 'b', 'c'] },
      'ok-1',
    );
    const execution = await settled(executionArn);
    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.startDate).toBeInstanceOf(Date);
    expect(execution.stopDate!.getTime()).toBeGreaterThanOrEqual(execution.startDate!.getTime());
    expect(outputOf(execution)).toEqual({
      greeting: 'hi',
      failures: 0,
      // lambda:invoke answers the Invoke response: StatusCode plus the function result under Payload.
      echo: { statusCode: 200, echoed: { greeting: 'hi', execution: executionArn }, functionName: 'echo' },
      flaky: { key: 'ok-1', attempts: 1 },
      slots: [
        { index: 0, value: 'a' },
        { index: 1, value: 'b' },
        { index: 2, value: 'c' },
      ],
    });
  });

  it('retries a named handler error, then succeeds', async () => {
    const execution = await settled(
      await start('pipeline', { greeting: 'hi', failures: 2, slots: [] }, 'retry-1'),
    );
    expect(execution.status).toBe('SUCCEEDED');
    expect(outputOf(execution)).toMatchObject({ flaky: { key: 'retry-1', attempts: 3 }, slots: [] });
  });

  it('catches the error once retries are exhausted, with Lambda payload as Cause', async () => {
    const execution = await settled(
      await start('pipeline', { greeting: 'hi', failures: 10, slots: [] }, 'catch-1'),
    );
    expect(execution.status).toBe('SUCCEEDED');
    expect(outputOf(execution)).toEqual({
      recovered: true,
      error: 'FlakyError',
      cause: {
        errorType: 'FlakyError',
        errorMessage: 'attempt 3 of catch-1 failed',
        trace: expect.any(Array),
      },
    });
  });

  it('ends FAILED with error and cause when a state fails uncaught', async () => {
    const execution = await settled(await start('pipeline', { greeting: 'hi', failures: 0 }, 'fail-1'));
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('States.Runtime');
    expect(execution.cause).toEqual(expect.any(String));
    expect(execution.output).toBeUndefined();
  });

  it("ends TIMED_OUT when the machine's TimeoutSeconds elapses", async () => {
    const execution = await settled(await start('timeout', { ms: 60_000 }));
    expect(execution.status).toBe('TIMED_OUT');
    expect(execution.error).toBe('States.Timeout');
  });

  it('ends ABORTED after StopExecution', async () => {
    const executionArn = await start('slow', { ms: 120_000 }, 'stop-1');
    expect((await local.sfn.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
    await local.sfn.send(
      new StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'the user left' }),
    );
    const execution = await settled(executionArn);
    expect(execution).toMatchObject({ status: 'ABORTED', error: 'Cancelled', cause: 'the user left' });
    expect(execution.stopDate).toBeInstanceOf(Date);

    const { executions } = await local.sfn.send(
      new ListExecutionsCommand({
        stateMachineArn: local.server.stateMachineArn('slow'),
        statusFilter: 'ABORTED',
      }),
    );
    expect(executions?.map((e) => e.executionArn)).toContain(executionArn);
  });

  it('reuses a running execution for the same name and input, else ExecutionAlreadyExists', async () => {
    const input = { ms: 120_000 };
    const first = await start('slow', input, 'dup-1');
    expect(await start('slow', input, 'dup-1')).toBe(first);
    await expect(start('slow', { ms: 1 }, 'dup-1')).rejects.toBeInstanceOf(ExecutionAlreadyExists);

    await local.sfn.send(new StopExecutionCommand({ executionArn: first }));
    await expect(start('slow', input, 'dup-1')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
  });

  it('raises the SDK exceptions for unknown ARNs and invalid input', async () => {
    const unknownExecution = 'arn:aws:states:us-east-1:000000000000:execution:pipeline:nope';
    await expect(
      local.sfn.send(new DescribeExecutionCommand({ executionArn: unknownExecution })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      local.sfn.send(
        new StartExecutionCommand({
          stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:nope',
        }),
      ),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      local.sfn.send(
        new StartExecutionCommand({ stateMachineArn: local.server.stateMachineArn('pipeline'), input: '{' }),
      ),
    ).rejects.toBeInstanceOf(InvalidExecutionInput);
  });

  it('logs one line when an execution starts and one when it ends', () => {
    expect(logLines).toContain('pipeline/ok-1 started');
    expect(logLines.some((line) => line.startsWith('pipeline/ok-1 SUCCEEDED in '))).toBe(true);
  });
});
