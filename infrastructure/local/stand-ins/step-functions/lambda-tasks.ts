import { randomUUID } from 'node:crypto';
import type { RunOptions } from 'aws-local-stepfunctions';
import {
  FunctionNotFoundError,
  LambdaFunctionError,
  parseFunctionName,
  type LambdaRuntime,
} from '../lambda/runtime';
import type { LocalLog } from '../../support/log';
import { allStates, LAMBDA_INVOKE_CALLBACK, type AslMachine, type AslState } from './asl';
import { callbackTask, type ExecutionScope } from './callback-tasks';

/*
 * Lambda Tasks of the local Step Functions stand-in: each Task invokes its function in-process through the local
 * Lambda runtime, with the request and response shapes and the error names of AWS's Lambda integration.
 */

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

export type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
export type TaskHandler = TaskHandlers[string];
/** A JSON value as the library types it (it does not export the type). */
export type JsonValue = Awaited<ReturnType<TaskHandler>>;

/**
 * The error a Task surfaces to Retry/Catch: `name` is the Step Functions error name (`ErrorEquals`), `message` its
 * Cause. The library reads `isRetryable`/`isCatchable`; `States.Runtime` errors are neither, as in AWS.
 */
export class TaskFailure extends Error {
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
export function toTaskFailure(error: unknown, requestId: string): TaskFailure {
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

/** Builds one execution's Task handlers, by state name. */
export type TaskHandlerFactory = (scope: ExecutionScope) => TaskHandlers;

/**
 * Fails a non-callback Task whose input carries the execution's token placeholder: in AWS only a `.waitForTaskToken`
 * Task has `$$.Task.Token`, elsewhere the path does not resolve (States.Runtime).
 */
function withoutTaskToken(handler: TaskHandler, scope: ExecutionScope): TaskHandler {
  return (input) => {
    if (JSON.stringify(input ?? null).includes(scope.tokenPlaceholder)) {
      throw new TaskFailure(
        'States.Runtime',
        `The JSONPath '$$.Task.Token' could not be found: only a ${LAMBDA_INVOKE_CALLBACK} Task has a task token`,
      );
    }
    return handler(input);
  };
}

/**
 * The Task handlers of one state machine, by state name, built per execution: every Lambda Task (`lambda:invoke`,
 * `lambda:invoke.waitForTaskToken` or a bare Lambda ARN) runs through `runtime`.
 *
 * @throws {Error} (at once, not per execution) for a Task that is not a Lambda Task, two Tasks of one name with
 *   different Resources, or two callback Tasks of one name.
 *
 * The library overrides Tasks by state NAME (nested Map/Parallel states included), not by Resource, so each name
 * gets the handler of its Resource; two Tasks sharing a name must share their Resource.
 */
export function taskHandlers(machine: AslMachine, runtime: LambdaRuntime, log: LocalLog): TaskHandlerFactory {
  const builders = new Map<string, (scope: ExecutionScope) => TaskHandler>();
  const resources = new Map<string, string>();
  const callbacks = new Map<string, AslState>();
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
      const handler = lambdaInvokeTask(runtime, log);
      builders.set(name, (scope) => withoutTaskToken(handler, scope));
    } else if (resource === LAMBDA_INVOKE_CALLBACK) {
      // The handler reads its state's timeouts, so a name must identify one state.
      if (callbacks.has(name)) throw new Error(`Two callback Task states are named "${name}"; rename one`);
      callbacks.set(name, state);
      builders.set(name, (scope) => callbackTask(state, runtime, log, scope));
    } else if (/^arn:aws[a-z-]*:lambda:/.test(resource) && parseFunctionName(resource) !== undefined) {
      if (!runtime.has(resource)) {
        log.error(`Task "${name}" invokes ${resource}, which is not a local function`);
      }
      const handler = lambdaArnTask(runtime, resource);
      builders.set(name, (scope) => withoutTaskToken(handler, scope));
    } else {
      throw new Error(
        `Task "${name}" uses ${resource}: the local runner only runs Lambda Tasks (docs/architecture.md §5)`,
      );
    }
  }
  return (scope) => Object.fromEntries([...builders].map(([name, build]) => [name, build(scope)]));
}
