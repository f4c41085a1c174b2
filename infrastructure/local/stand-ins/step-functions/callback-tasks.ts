import { randomUUID } from 'node:crypto';
import type { LambdaRuntime } from '../lambda/runtime';
import type { LocalLog } from '../../support/log';
import { LAMBDA_INVOKE_CALLBACK, type AslState, type CallbackTaskInput } from './asl';
import { TaskFailure, toTaskFailure, type JsonValue, type TaskHandler } from './lambda-tasks';
import type { TaskTokens } from './task-tokens';

/*
 * Callback Tasks of the local Step Functions stand-in: `arn:aws:states:::lambda:invoke.waitForTaskToken`
 * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-lambda.html). The Task invokes its function with
 * `$$.Task.Token` in the Payload, ignores what the function returns, and waits for SendTaskSuccess/SendTaskFailure,
 * its TimeoutSeconds (`States.Timeout`) or its HeartbeatSeconds (`States.HeartbeatTimeout`).
 */

/** What one execution's Task handlers share: its ARN, its task-token placeholder and the service's tokens. */
export interface ExecutionScope {
  executionArn: string;
  /**
   * The execution's Context object carries this string as `Task.Token`; each callback Task attempt replaces it with
   * a fresh token wherever its Parameters copied it (`"taskToken.$": "$$.Task.Token"`, or inside
   * `States.Format(…)`), so every Map iteration and every retry gets its own token.
   */
  tokenPlaceholder: string;
  tokens: TaskTokens;
}

/** `value` with every occurrence of `from` inside its strings replaced by `to`. */
function replaceInStrings(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((v) => replaceInStrings(v, from, to));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceInStrings(v, from, to)]));
  }
  return value;
}

/**
 * A timeout in seconds as ASL allows it: a positive integer (a `*SecondsPath` resolving to anything else is a
 * runtime error, as in AWS), or `undefined` when the Task sets none.
 */
function seconds(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new TaskFailure(
    'States.Runtime',
    `${field} must be a positive integer, got ${JSON.stringify(value)}`,
  );
}

/**
 * The handler of one callback Task `state` within one execution. The Lambda call is started and not awaited: its
 * result is ignored, a function error (or a Lambda API error) fails the attempt with the names the plain
 * `lambda:invoke` integration uses; with `InvocationType: 'Event'` nothing about the call fails the Task.
 */
export function callbackTask(
  state: AslState,
  runtime: LambdaRuntime,
  log: LocalLog,
  scope: ExecutionScope,
): TaskHandler {
  return async (input): Promise<JsonValue> => {
    const wrapped = input as unknown as CallbackTaskInput;
    const timeoutSeconds = seconds(wrapped.TimeoutSeconds ?? state.TimeoutSeconds, 'TimeoutSeconds');
    const heartbeatSeconds = seconds(wrapped.HeartbeatSeconds ?? state.HeartbeatSeconds, 'HeartbeatSeconds');
    if (timeoutSeconds === undefined) throw new TaskFailure('States.Runtime', 'The Task has no timeout');
    // ASL: "HeartbeatSeconds must be smaller than TimeoutSeconds" (https://states-language.net/#task-state).
    if (heartbeatSeconds !== undefined && heartbeatSeconds >= timeoutSeconds) {
      throw new TaskFailure(
        'States.Runtime',
        `HeartbeatSeconds (${heartbeatSeconds}) must be smaller than TimeoutSeconds (${timeoutSeconds})`,
      );
    }
    const params = (wrapped.Parameters ?? {}) as {
      FunctionName?: unknown;
      Payload?: unknown;
      InvocationType?: unknown;
    };
    if (typeof params.FunctionName !== 'string') {
      throw new TaskFailure(
        'States.Runtime',
        `${LAMBDA_INVOKE_CALLBACK} needs Parameters.FunctionName (a name or ARN)`,
      );
    }
    const functionName = params.FunctionName;
    const issued = scope.tokens.issue(scope.executionArn, { timeoutSeconds, heartbeatSeconds });
    const payload =
      params.Payload === undefined
        ? {}
        : replaceInStrings(params.Payload, scope.tokenPlaceholder, issued.token);
    if (params.InvocationType === 'Event') {
      runtime
        .invoke(functionName, payload)
        .catch((error: unknown) => log.error(`async ${functionName}: ${String(error)}`));
    } else {
      const requestId = randomUUID();
      runtime
        .invoke(functionName, payload, { requestId })
        .catch((error: unknown) => issued.fail(toTaskFailure(error, requestId)));
    }
    return (await issued.outcome) as JsonValue;
  };
}
