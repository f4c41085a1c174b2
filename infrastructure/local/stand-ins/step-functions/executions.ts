import { randomUUID } from 'node:crypto';
import { ExecutionAbortedError, ExecutionError, ExecutionTimeoutError } from 'aws-local-stepfunctions';
import type { LocalLog } from '../../support/log';
import type { JsonValue } from './lambda-tasks';
import type { LoadedMachine } from './state-machines';
import type { TaskTokens } from './task-tokens';

/*
 * Executions of the local Step Functions stand-in: one run of a loaded state machine, kept in memory with the
 * status, dates, output and error AWS's DescribeExecution reports.
 */

/** The statuses DescribeExecution reports (no redrive locally). */
export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

/** One execution as the stand-in keeps it; dates in epoch ms. */
export interface Execution {
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
  /** Told of every status change (the start, then the end): the status-change event goes out from here. */
  onStatusChange?: (execution: Execution) => void;
  /** Called once when the execution ends, however it ends: its task tokens close here. */
  onEnd?: () => void;
}

/** Epoch ms as the epoch seconds the AWS JSON protocol carries. */
export const seconds = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

/** AWS execution names: 1-80 characters, no whitespace, brackets, wildcards, special or control characters. */
export function isValidExecutionName(name: string): boolean {
  if (name.length < 1 || name.length > 80) return false;
  return [...name].every((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code > 0x1f && (code < 0x7f || code > 0x9f) && !/[\s<>{}[\]?*"#%\\^|~`$&,;:/]/.test(ch);
  });
}

/**
 * Closes a RUNNING execution with `status` and tells its `onStatusChange` (unless `silent`: the local service
 * stopping is not an ending the cloud would report); `false` when it had already ended (it keeps its first ending).
 */
export function finish(
  execution: Execution,
  status: ExecutionStatus,
  fields: Partial<Execution> = {},
  options: { silent?: boolean } = {},
): boolean {
  if (execution.status !== 'RUNNING') return false;
  Object.assign(execution, fields, { status, stopDate: Date.now() });
  execution.onEnd?.();
  if (!options.silent) execution.onStatusChange?.(execution);
  return true;
}

/** The status and `error`/`cause` AWS reports for an execution that ended with `error`. */
export function failureOf(
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
  // A SendTaskFailure without error or cause leaves them null (task-tokens.ts): the execution then has none.
  if (cause instanceof Error)
    return ['FAILED', { error: cause.name ?? undefined, cause: cause.message ?? undefined }];
  return ['FAILED', { error: 'Error', cause: String(cause) }];
}

/**
 * Starts one execution of `machine` in the background and returns its record, which is closed (status, stop date,
 * output or error) when the run ends; the run is logged with its duration.
 */
export function runExecution(
  machine: LoadedMachine,
  name: string,
  inputText: string,
  input: unknown,
  context: {
    executionArn: string;
    roleArn: string;
    log: LocalLog;
    tokens: TaskTokens;
    onStatusChange?: (execution: Execution) => void;
  },
): Execution {
  const { executionArn, roleArn, log, tokens, onStatusChange } = context;
  const startDate = Date.now();
  // Stands for $$.Task.Token until a callback Task attempt swaps in its own token (callback-tasks.ts).
  const tokenPlaceholder = `local-task-token-placeholder:${randomUUID()}`;
  const running = machine.machine.run(input as JsonValue, {
    overrides: { taskResourceLocalHandlers: machine.tasks({ executionArn, tokenPlaceholder, tokens }) },
    // The Context Object ($$) as AWS fills it; the library adds Execution.Input and Execution.StartTime.
    context: {
      Execution: { Id: executionArn, Name: name, RoleArn: roleArn, RedriveCount: 0 },
      StateMachine: { Id: machine.arn, Name: machine.name },
      Task: { Token: tokenPlaceholder },
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
    onStatusChange,
    onEnd: () => tokens.closeExecution(executionArn),
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
  onStatusChange?.(execution);
  return execution;
}
