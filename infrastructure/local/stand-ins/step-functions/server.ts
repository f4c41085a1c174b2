import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  ExecutionAbortedError,
  ExecutionError,
  ExecutionTimeoutError,
  StateMachine,
  type RunOptions,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import * as z from 'zod';
import {
  FunctionNotFoundError,
  LambdaFunctionError,
  parseFunctionName,
  type LambdaRuntime,
  type LocalLog,
} from '../../functions';
import type { LocalServer } from '../lambda/invoke-api';

/**
 * The local Step Functions service: the AWS JSON 1.0 protocol SFNClient speaks, backed by aws-local-stepfunctions
 * running the very ASL files CDK deploys (`statemachines/*.asl.json`), with every Lambda Task invoked in-process
 * through the local Lambda runtime (docs/architecture.md §4, §5). Executions live in memory.
 */

/** Options of {@link startStepFunctionsServer}. */
export interface StepFunctionsServerOptions {
  /** TCP port; 0 picks a free one (read it back from `url`). */
  port: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Runs every Lambda Task (`arn:aws:states:::lambda:invoke` or a bare Lambda ARN). */
  runtime: LambdaRuntime;
  /** Directory of `*.asl.json` files; each file's basename without `.asl.json` is the state machine name. */
  stateMachinesDir: string;
  /** CDK `definitionSubstitutions`: each `${Key}` in a definition is replaced by its value before parsing. */
  substitutions?: Record<string, string>;
  /** Region in ARNs. Default `us-east-1`. */
  region?: string;
  /** Account id in ARNs. Default `000000000000`. */
  accountId?: string;
  log: LocalLog;
}

/** The running local Step Functions service. */
export interface StepFunctionsServer extends LocalServer {
  /**
   * The ARN of a loaded state machine: `arn:aws:states:<region>:<account>:stateMachine:<name>`.
   *
   * @throws {Error} when no `<name>.asl.json` was loaded.
   */
  stateMachineArn(name: string): string;
}

// ---------------------------------------------------------------------------------------------------------------
// Definitions

/**
 * Applies CDK-style `definitionSubstitutions` to a definition's text: every `${Key}` becomes its value, verbatim.
 *
 * @throws {Error} naming every `${Key}` that has no value (CloudFormation would reject the definition too).
 */
export function applyDefinitionSubstitutions(text: string, substitutions: Record<string, string>): string {
  const missing = new Set<string>();
  const result = text.replace(/\$\{([^}]+)\}/g, (whole, key: string) => {
    if (Object.hasOwn(substitutions, key)) return substitutions[key] as string;
    missing.add(key);
    return whole;
  });
  if (missing.size > 0)
    throw new Error(`No substitution for ${[...missing].map((k) => `\${${k}}`).join(', ')}`);
  return result;
}

/** The parts of ASL this module reads; the library validates the rest. */
interface AslState {
  Type?: string;
  Resource?: unknown;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
  Iterator?: AslMachine;
  ItemProcessor?: AslMachine;
  Branches?: AslMachine[];
}
interface AslMachine {
  States?: Record<string, AslState>;
  TimeoutSeconds?: number;
}

// Node's setTimeout overflows above 2^31-1 ms (and then fires at once), so longer timeouts are capped (~24.8 days).
const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function* allStates(machine: AslMachine): Generator<[string, AslState]> {
  for (const [name, state] of Object.entries(machine.States ?? {})) {
    yield [name, state];
    const inner = state.ItemProcessor ?? state.Iterator;
    if (inner) yield* allStates(inner);
    for (const branch of state.Branches ?? []) yield* allStates(branch);
  }
}

/*
 * The library gives a Task without TimeoutSeconds 60 s, where AWS gives it 99999999 s (no limit in practice): our
 * image tasks run for minutes, so the AWS default is made explicit. Every timeout is capped to what a timer can hold.
 */
function applyAwsTimeoutDefaults(machine: AslMachine): void {
  if (machine.TimeoutSeconds !== undefined)
    machine.TimeoutSeconds = Math.min(machine.TimeoutSeconds, MAX_TIMER_SECONDS);
  for (const [, state] of allStates(machine)) {
    if (state.Type === 'Task' && state.TimeoutSecondsPath === undefined) {
      state.TimeoutSeconds = Math.min(state.TimeoutSeconds ?? MAX_TIMER_SECONDS, MAX_TIMER_SECONDS);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lambda Tasks

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type TaskHandler = TaskHandlers[string];
/** A JSON value as the library types it (it does not export the type). */
type JsonValue = Awaited<ReturnType<TaskHandler>>;

/**
 * The error a Task surfaces to Retry/Catch: `name` is the Step Functions error name (`ErrorEquals`), `message` its
 * Cause. The library reads `isRetryable`/`isCatchable`; `States.Runtime` errors are neither, as in AWS.
 */
class TaskFailure extends Error {
  readonly isRetryable: boolean;
  readonly isCatchable: boolean;
  constructor(name: string, cause: string) {
    super(cause);
    this.name = name;
    this.isRetryable = this.isCatchable = name !== 'States.Runtime';
  }
}

/*
 * How AWS reports a failed Lambda call to the state machine: a function error keeps the function's errorType as
 * the Error and the JSON payload as the Cause; a Lambda API error becomes `Lambda.<Exception>`.
 */
function toTaskFailure(error: unknown, requestId: string): TaskFailure {
  if (error instanceof LambdaFunctionError) {
    return new TaskFailure(error.payload.errorType, JSON.stringify(error.payload));
  }
  if (error instanceof FunctionNotFoundError) {
    return new TaskFailure(
      `Lambda.${error.name}`,
      `${error.message} (Service: Lambda, Status Code: 404, Request ID: ${requestId})`,
    );
  }
  return new TaskFailure('Lambda.ServiceException', error instanceof Error ? error.message : String(error));
}

async function invokeForTask(runtime: LambdaRuntime, functionName: string, payload: unknown) {
  const requestId = randomUUID();
  try {
    return { requestId, result: await runtime.invoke(functionName, payload, { requestId }) };
  } catch (error) {
    throw toTaskFailure(error, requestId);
  }
}

/**
 * `arn:aws:states:::lambda:invoke`: the Task's effective input is the Parameters `{ FunctionName, Payload }`, and its
 * result is the Lambda Invoke response in the shape AWS's integration returns it, the function's result under
 * `Payload`, so `ResultSelector`/`OutputPath` `$.Payload` work as in the cloud. `InvocationType: 'Event'` answers 202
 * at once and runs the function in the background.
 */
function lambdaInvokeTask(runtime: LambdaRuntime, log: LocalLog): TaskHandler {
  return async (input): Promise<JsonValue> => {
    const params = (input ?? {}) as { FunctionName?: unknown; Payload?: unknown; InvocationType?: unknown };
    if (typeof params.FunctionName !== 'string') {
      throw new TaskFailure(
        'States.Runtime',
        `${LAMBDA_INVOKE} needs Parameters.FunctionName (a name or ARN)`,
      );
    }
    const functionName = params.FunctionName;
    // Lambda hands an absent payload to the handler as `{}`.
    const payload = params.Payload === undefined ? {} : params.Payload;
    if (params.InvocationType === 'Event') {
      runtime
        .invoke(functionName, payload)
        .catch((error: unknown) => log.error(`async ${functionName}: ${String(error)}`));
      return { Payload: '', StatusCode: 202 };
    }
    const { requestId, result } = await invokeForTask(runtime, functionName, payload);
    const headers = {
      'Content-Type': 'application/json',
      'X-Amz-Executed-Version': '$LATEST',
      'x-amzn-RequestId': requestId,
    };
    return {
      ExecutedVersion: '$LATEST',
      Payload: result as JsonValue,
      SdkHttpMetadata: {
        AllHttpHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
        HttpHeaders: headers,
        HttpStatusCode: 200,
      },
      SdkResponseMetadata: { RequestId: requestId },
      StatusCode: 200,
    };
  };
}

/** A bare Lambda ARN as Resource (CDK `payloadResponseOnly`): the input is the event, the result is the output. */
function lambdaArnTask(runtime: LambdaRuntime, functionArn: string): TaskHandler {
  return async (input) => (await invokeForTask(runtime, functionArn, input)).result as JsonValue;
}

/*
 * The library overrides Tasks by state NAME (nested Map/Parallel states included), not by Resource, so each name
 * gets the handler of its Resource; two Tasks sharing a name must share their Resource.
 */
function taskHandlers(machine: AslMachine, runtime: LambdaRuntime, log: LocalLog): TaskHandlers {
  const handlers: TaskHandlers = {};
  const resources = new Map<string, string>();
  for (const [name, state] of allStates(machine)) {
    if (state.Type !== 'Task') continue;
    const resource = String(state.Resource);
    const seen = resources.get(name);
    if (seen !== undefined && seen !== resource) {
      throw new Error(
        `Task states named "${name}" use different Resources (${seen}, ${resource}); rename one`,
      );
    }
    resources.set(name, resource);
    if (resource === LAMBDA_INVOKE) {
      handlers[name] = lambdaInvokeTask(runtime, log);
    } else if (/^arn:aws[a-z-]*:lambda:/.test(resource) && parseFunctionName(resource) !== undefined) {
      if (!runtime.has(resource)) {
        log.error(`Task "${name}" invokes ${resource}, which is not a local function`);
      }
      handlers[name] = lambdaArnTask(runtime, resource);
    } else {
      throw new Error(
        `Task "${name}" uses ${resource}: the local runner only runs Lambda Tasks (docs/architecture.md §5)`,
      );
    }
  }
  return handlers;
}

// ---------------------------------------------------------------------------------------------------------------
// State machines and executions

interface LoadedMachine {
  name: string;
  arn: string;
  /** The definition text after substitutions (what DescribeStateMachine returns). */
  definition: string;
  timeoutSeconds: number | undefined;
  machine: StateMachine;
  tasks: TaskHandlers;
  /** Oldest first. */
  executions: Execution[];
  creationDate: number;
}

type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  /** The input JSON text, as given to StartExecution. */
  input: string;
  status: ExecutionStatus;
  /** Epoch ms. */
  startDate: number;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  abort(): void;
}

async function loadStateMachines(
  options: Required<
    Pick<StepFunctionsServerOptions, 'stateMachinesDir' | 'substitutions' | 'region' | 'accountId'>
  > &
    Pick<StepFunctionsServerOptions, 'runtime' | 'log'>,
): Promise<Map<string, LoadedMachine>> {
  const { stateMachinesDir, substitutions, region, accountId, runtime, log } = options;
  const machines = new Map<string, LoadedMachine>();
  const files = (await readdir(stateMachinesDir)).filter((file) => file.endsWith('.asl.json')).sort();
  for (const file of files) {
    const name = file.slice(0, -'.asl.json'.length);
    try {
      const definition = applyDefinitionSubstitutions(
        await readFile(join(stateMachinesDir, file), 'utf8'),
        substitutions,
      );
      const parsed = JSON.parse(definition) as AslMachine;
      const tasks = taskHandlers(parsed, runtime, log);
      applyAwsTimeoutDefaults(parsed);
      // Validation stays on (JSONPaths and ARNs included): a definition AWS would reject fails here, at start.
      const machine = new StateMachine(parsed as unknown as StateMachineDefinition, {
        validationOptions: { checkPaths: true, checkArn: true },
      });
      const arn = `arn:aws:states:${region}:${accountId}:stateMachine:${name}`;
      machines.set(arn, {
        name,
        arn,
        definition,
        timeoutSeconds: parsed.TimeoutSeconds,
        machine,
        tasks,
        executions: [],
        creationDate: Date.now(),
      });
    } catch (error) {
      throw new Error(`${join(stateMachinesDir, file)}: ${(error as Error).message}`, { cause: error });
    }
  }
  return machines;
}

/** An AWS JSON-protocol error: `__type` names the SDK's exception class. */
class SfnError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

// AWS execution names: 1-80 characters, no whitespace, brackets, wildcards, special or control characters.
function isValidExecutionName(name: string): boolean {
  if (name.length < 1 || name.length > 80) return false;
  return [...name].every((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code > 0x1f && (code < 0x7f || code > 0x9f) && !/[\s<>{}[\]?*"#%\\^|~`$&,;:/]/.test(ch);
  });
}

function finish(execution: Execution, status: ExecutionStatus, fields: Partial<Execution> = {}): boolean {
  if (execution.status !== 'RUNNING') return false;
  Object.assign(execution, fields, { status, stopDate: Date.now() });
  return true;
}

function failureOf(
  error: unknown,
  timeoutSeconds: number | undefined,
): [ExecutionStatus, Partial<Execution>] {
  if (error instanceof ExecutionTimeoutError) {
    return [
      'TIMED_OUT',
      { error: 'States.Timeout', cause: `The execution ran longer than ${timeoutSeconds} s` },
    ];
  }
  if (error instanceof ExecutionAbortedError) return ['ABORTED', {}];
  const cause = error instanceof ExecutionError && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof Error) return ['FAILED', { error: cause.name, cause: cause.message }];
  return ['FAILED', { error: 'Error', cause: String(cause) }];
}

// ---------------------------------------------------------------------------------------------------------------
// The protocol

const arnString = z.string().min(1).max(2048);
const requests = {
  StartExecution: z.object({
    stateMachineArn: arnString,
    name: z.string().optional(),
    input: z.string().max(262_144).optional(),
    traceHeader: z.string().optional(),
  }),
  DescribeExecution: z.object({ executionArn: arnString }),
  StopExecution: z.object({
    executionArn: arnString,
    error: z.string().max(256).optional(),
    cause: z.string().max(32_768).optional(),
  }),
  ListExecutions: z.object({
    stateMachineArn: arnString,
    statusFilter: z
      .enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE'])
      .optional(),
    maxResults: z.number().int().min(0).max(1000).optional(),
    nextToken: z.string().optional(),
  }),
  DescribeStateMachine: z.object({ stateMachineArn: arnString }),
};
type Operation = keyof typeof requests;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Step Functions caps input at 256 KiB; a request a few times larger is not a real client.
    if (size > 1024 * 1024) throw new SfnError('ValidationException', 'Request body too large', 413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw new SfnError('SerializationException', 'The request body is not valid JSON');
  }
}

/**
 * Starts the local Step Functions service and loads every `*.asl.json` of `stateMachinesDir`.
 *
 * Operations (POST /, `X-Amz-Target: AWSStepFunctions.<Operation>`, `application/x-amz-json-1.0`):
 * - `StartExecution` `{ stateMachineArn, name?, input? }` → `{ executionArn, startDate }`. Like AWS, repeating the
 *   name of a RUNNING execution with identical input returns that execution; any other reuse of a name is
 *   `ExecutionAlreadyExists`.
 * - `DescribeExecution` → status `RUNNING | SUCCEEDED | FAILED | TIMED_OUT | ABORTED`, `input`, `output` (JSON text,
 *   on success), `error`/`cause` (on failure), `startDate`/`stopDate` (epoch seconds).
 * - `StopExecution` `{ executionArn, error?, cause? }` → `{ stopDate }`; the execution ends `ABORTED`.
 * - `ListExecutions` `{ stateMachineArn, statusFilter?, maxResults?, nextToken? }`, newest first.
 * - `DescribeStateMachine` → `{ stateMachineArn, name, status: 'ACTIVE', definition, roleArn, type: 'STANDARD', … }`.
 *
 * Errors are 400 `{ "__type": "<Exception>", "message" }` (`StateMachineDoesNotExist`, `ExecutionDoesNotExist`,
 * `ExecutionAlreadyExists`, `InvalidArn`, `InvalidName`, `InvalidExecutionInput`, `InvalidToken`,
 * `ValidationException`, `UnknownOperationException`), so the SDK raises its named exception classes.
 *
 * @throws {Error} (rejects) when a definition cannot be loaded — a missing substitution, invalid JSON or ASL, a
 *   non-Lambda Task — or when the port cannot be bound.
 */
export async function startStepFunctionsServer(
  options: StepFunctionsServerOptions,
): Promise<StepFunctionsServer> {
  const {
    port,
    host = '127.0.0.1',
    runtime,
    stateMachinesDir,
    substitutions = {},
    region = 'us-east-1',
    accountId = '000000000000',
    log,
  } = options;
  const machines = await loadStateMachines({
    stateMachinesDir,
    substitutions,
    region,
    accountId,
    runtime,
    log,
  });
  const executions = new Map<string, Execution>();
  const roleArn = `arn:aws:iam::${accountId}:role/local-stepfunctions`;

  function machineOf(stateMachineArn: string): LoadedMachine {
    if (!stateMachineArn.startsWith('arn:') || !stateMachineArn.includes(':stateMachine:')) {
      throw new SfnError(
        'InvalidArn',
        `Invalid Arn: 'Resource type not valid in this context: ${stateMachineArn}'`,
      );
    }
    const machine = machines.get(stateMachineArn);
    if (!machine)
      throw new SfnError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${stateMachineArn}'`);
    return machine;
  }

  function executionOf(executionArn: string): Execution {
    if (!executionArn.startsWith('arn:') || !executionArn.includes(':execution:')) {
      throw new SfnError(
        'InvalidArn',
        `Invalid Arn: 'Resource type not valid in this context: ${executionArn}'`,
      );
    }
    const execution = executions.get(executionArn);
    if (!execution)
      throw new SfnError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return execution;
  }

  function run(machine: LoadedMachine, name: string, inputText: string, input: unknown): Execution {
    const executionArn = `arn:aws:states:${region}:${accountId}:execution:${machine.name}:${name}`;
    const startDate = Date.now();
    const running = machine.machine.run(input as JsonValue, {
      overrides: { taskResourceLocalHandlers: machine.tasks },
      // The Context Object ($$) as AWS fills it; the library adds Execution.Input and Execution.StartTime.
      context: {
        Execution: { Id: executionArn, Name: name, RoleArn: roleArn, RedriveCount: 0 },
        StateMachine: { Id: machine.arn, Name: machine.name },
      },
    });
    const execution: Execution = {
      executionArn,
      stateMachineArn: machine.arn,
      name,
      input: inputText,
      status: 'RUNNING',
      startDate,
      abort: running.abort,
    };
    const label = `${machine.name}/${name}`;
    const took = () => `${((Date.now() - startDate) / 1000).toFixed(2)} s`;
    running.result.then(
      (output) => {
        if (finish(execution, 'SUCCEEDED', { output: JSON.stringify(output) }))
          log.info(`${label} SUCCEEDED in ${took()}`);
      },
      (error: unknown) => {
        const [status, fields] = failureOf(error, machine.timeoutSeconds);
        if (!finish(execution, status, fields)) return;
        log.error(
          `${label} ${status} after ${took()}: ${fields.error ?? ''} ${(fields.cause ?? '').slice(0, 500)}`,
        );
      },
    );
    log.info(`${label} started`);
    return execution;
  }

  const operations: { [Op in Operation]: (body: z.output<(typeof requests)[Op]>) => unknown } = {
    StartExecution({ stateMachineArn, name = randomUUID(), input: inputText = '{}' }) {
      const machine = machineOf(stateMachineArn);
      if (!isValidExecutionName(name)) throw new SfnError('InvalidName', `Invalid Name: '${name}'`);
      let input: unknown;
      try {
        input = JSON.parse(inputText);
      } catch (error) {
        throw new SfnError(
          'InvalidExecutionInput',
          `Invalid State Machine Execution Input: '${(error as Error).message}'`,
        );
      }
      const executionArn = `arn:aws:states:${region}:${accountId}:execution:${machine.name}:${name}`;
      let execution = executions.get(executionArn);
      if (execution && !(execution.status === 'RUNNING' && execution.input === inputText)) {
        throw new SfnError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
      }
      if (!execution) {
        execution = run(machine, name, inputText, input);
        executions.set(executionArn, execution);
        machine.executions.push(execution);
      }
      return { executionArn, startDate: seconds(execution.startDate) };
    },

    DescribeExecution({ executionArn }) {
      const e = executionOf(executionArn);
      return {
        executionArn: e.executionArn,
        stateMachineArn: e.stateMachineArn,
        name: e.name,
        status: e.status,
        startDate: seconds(e.startDate),
        stopDate: seconds(e.stopDate),
        input: e.input,
        inputDetails: { included: true },
        ...(e.output === undefined ? {} : { output: e.output, outputDetails: { included: true } }),
        error: e.error,
        cause: e.cause,
      };
    },

    StopExecution({ executionArn, error, cause }) {
      const execution = executionOf(executionArn);
      // Stopping a closed execution is not an error in AWS: it keeps its status and stop date.
      if (finish(execution, 'ABORTED', { error, cause })) {
        execution.abort();
        log.info(`${execution.stateMachineArn.split(':').pop()}/${execution.name} ABORTED by StopExecution`);
      }
      return { stopDate: seconds(execution.stopDate) };
    },

    ListExecutions({ stateMachineArn, statusFilter, maxResults, nextToken }) {
      const machine = machineOf(stateMachineArn);
      const matching = machine.executions.filter((e) => !statusFilter || e.status === statusFilter).reverse();
      const start =
        nextToken === undefined ? 0 : Number(Buffer.from(nextToken, 'base64url').toString('utf8'));
      if (!Number.isInteger(start) || start < 0)
        throw new SfnError('InvalidToken', `Invalid Token: '${nextToken}'`);
      const end = start + (maxResults || 100);
      return {
        executions: matching.slice(start, end).map((e) => ({
          executionArn: e.executionArn,
          stateMachineArn: e.stateMachineArn,
          name: e.name,
          status: e.status,
          startDate: seconds(e.startDate),
          stopDate: seconds(e.stopDate),
        })),
        nextToken: end < matching.length ? Buffer.from(String(end)).toString('base64url') : undefined,
      };
    },

    DescribeStateMachine({ stateMachineArn }) {
      const machine = machineOf(stateMachineArn);
      return {
        stateMachineArn: machine.arn,
        name: machine.name,
        status: 'ACTIVE',
        definition: machine.definition,
        roleArn,
        type: 'STANDARD',
        creationDate: seconds(machine.creationDate),
        loggingConfiguration: { level: 'OFF', includeExecutionData: false },
      };
    },
  };

  async function handle(req: IncomingMessage): Promise<unknown> {
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('AWSStepFunctions.') ? target.slice('AWSStepFunctions.'.length) : '';
    if (req.method !== 'POST' || !Object.hasOwn(requests, operation)) {
      throw new SfnError(
        'UnknownOperationException',
        `Unsupported operation: ${target || `${req.method} ${req.url}`}`,
      );
    }
    const op = operation as Operation;
    const parsed = requests[op].safeParse(await readJson(req));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
      throw new SfnError(
        'ValidationException',
        `${problems.length} validation error(s) detected: ${problems.join('; ')}`,
      );
    }
    return (operations[op] as (body: unknown) => unknown)(parsed.data);
  }

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    handle(req).then(
      (result) => {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId });
        res.end(JSON.stringify(result));
      },
      (error: unknown) => {
        const known = error instanceof SfnError;
        if (!known) log.error(`Step Functions endpoint error: ${(error as Error).stack ?? String(error)}`);
        const type = known ? error.type : 'InternalFailure';
        res.writeHead(known ? error.status : 500, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': requestId,
          'x-amzn-errortype': type,
        });
        res.end(
          JSON.stringify({
            __type: type,
            message: known ? error.message : 'The local Step Functions service failed',
          }),
        );
      },
    );
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  log.info(
    `Step Functions API on ${url} (${[...machines.values()].map((m) => m.name).join(', ') || 'no state machines'})`,
  );

  return {
    url,
    stateMachineArn(name) {
      const arn = `arn:aws:states:${region}:${accountId}:stateMachine:${name}`;
      if (!machines.has(arn)) throw new Error(`No state machine "${name}" in ${stateMachinesDir}`);
      return arn;
    },
    close() {
      // Running executions end with the service, as their in-memory state would.
      for (const execution of executions.values()) {
        if (finish(execution, 'ABORTED', { cause: 'The local Step Functions service stopped' }))
          execution.abort();
      }
      return new Promise<void>((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      });
    },
  };
}
