import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LambdaRuntime } from '../lambda/runtime';
import type { LocalLog } from '../../support/log';
import { closeServer, listen } from '../../support/http';
import type { LocalServer } from '../lambda/invoke-api';
import { finish, type Execution } from './executions';
import { createOperations, type Operations } from './operations';
import { readJson, requests, SfnError, type Operation } from './protocol';
import { loadStateMachines, localStateMachineArn } from './state-machines';
import { TaskTokens } from './task-tokens';
import { executionStatusChangeEvent, type ExecutionStatusChangeEvent } from './status-events';

export { applyDefinitionSubstitutions, stateMachineSubstitutions } from './substitutions';

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
  /**
   * Where the "Step Functions Execution Status Change" events go, as Step Functions sends them to EventBridge's
   * default bus: one when an execution starts, one when it ends (the local event bus matches them to rules).
   */
  events?: { put(event: ExecutionStatusChangeEvent): void };
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

/** Parses one AWS JSON 1.0 request and runs its operation; rejects with {@link SfnError} for a bad request. */
async function handle(req: IncomingMessage, operations: Operations): Promise<unknown> {
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

/** Writes an operation's result, or its error as `{ __type, message }` (500 InternalFailure for a bug of ours). */
function reply(
  res: ServerResponse,
  requestId: string,
  log: LocalLog,
  outcome: { result: unknown } | { error: unknown },
) {
  if ('result' in outcome) {
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId });
    res.end(JSON.stringify(outcome.result));
    return;
  }
  const { error } = outcome;
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
 * - `SendTaskSuccess` `{ taskToken, output }`, `SendTaskFailure` `{ taskToken, error?, cause? }`,
 *   `SendTaskHeartbeat` `{ taskToken }` → `{}`: answer a `lambda:invoke.waitForTaskToken` Task attempt
 *   (task-tokens.ts, callback-tasks.ts); `InvalidToken`, `TaskDoesNotExist`, `TaskTimedOut`, `InvalidOutput`.
 *
 * Every start and end of an execution is sent to `events` as a "Step Functions Execution Status Change" event.
 *
 * Errors are 400 `{ "__type": "<Exception>", "message" }` (`StateMachineDoesNotExist`, `ExecutionDoesNotExist`,
 * `ExecutionAlreadyExists`, `InvalidArn`, `InvalidName`, `InvalidExecutionInput`, `InvalidToken`,
 * `ValidationException`, `UnknownOperationException`, and the task-token errors above), so the SDK raises its named
 * exception classes.
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
    events,
    log,
  } = options;
  const at = { region, accountId };
  const machines = await loadStateMachines({ stateMachinesDir, substitutions, at, runtime, log });
  const executions = new Map<string, Execution>();
  const onStatusChange = events
    ? (execution: Execution) => events.put(executionStatusChangeEvent(execution, at))
    : undefined;
  const operations = createOperations({
    machines,
    executions,
    at,
    log,
    tokens: new TaskTokens(),
    onStatusChange,
  });

  const server = createServer((req, res) => {
    const requestId = randomUUID();
    handle(req, operations).then(
      (result) => reply(res, requestId, log, { result }),
      (error: unknown) => reply(res, requestId, log, { error }),
    );
  });
  const url = await listen(server, port, host);
  log.info(
    `Step Functions API on ${url} (${[...machines.values()].map((m) => m.name).join(', ') || 'no state machines'})`,
  );

  return {
    url,
    stateMachineArn(name) {
      const arn = localStateMachineArn(name, at);
      if (!machines.has(arn)) throw new Error(`No state machine "${name}" in ${stateMachinesDir}`);
      return arn;
    },
    close() {
      // Running executions end with the service, as their in-memory state would. No status-change event: the cloud
      // service never stops, and a generation cut off here is reconciled by the API and the sweeper.
      for (const execution of executions.values()) {
        const cause = 'The local Step Functions service stopped';
        if (finish(execution, 'ABORTED', { cause }, { silent: true })) execution.abort();
      }
      return closeServer(server);
    },
  };
}
