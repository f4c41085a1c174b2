import { randomUUID } from 'node:crypto';
import type { RunOptions } from 'aws-local-stepfunctions';
import {
  FunctionNotFoundError,
  LambdaFunctionError,
  parseFunctionName,
  type LambdaRuntime,
  type LocalLog,
} from '../../functions';
import { allStates, type AslMachine } from './asl';

/*
 * Lambda Tasks of the local Step Functions stand-in: each Task invokes its function in-process through the local
 * Lambda runtime, with the request and response shapes and the error names of AWS's Lambda integration.
 */

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

export type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type TaskHandler = TaskHandlers[string];
/** A JSON value as the library types it (it does not export the type). */
export type JsonValue = Awaited<ReturnType<TaskHandler>>;

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

/**
 * The Task handlers of one state machine, by state name: every Lambda Task (`lambda:invoke` or a bare Lambda ARN)
 * runs through `runtime`.
 *
 * @throws {Error} for a Task that is not a Lambda Task, or two Tasks of one name with different Resources.
 *
 * The library overrides Tasks by state NAME (nested Map/Parallel states included), not by Resource, so each name
 * gets the handler of its Resource; two Tasks sharing a name must share their Resource.
 */
export function taskHandlers(machine: AslMachine, runtime: LambdaRuntime, log: LocalLog): TaskHandlers {
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
