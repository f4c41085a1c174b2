import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { catalogue, type CognitoTrigger, type RateExpression } from '../../../../functions/catalogue';
import { runAsFunction, type IamCheck } from '../../iam/caller';
import { jsonCopy } from '../../support/json-copy';
import { REPO_ROOT } from '../../support/paths';

/**
 * The local Lambda registry and runtime: the same handler modules the CDK stack deploys, imported in-process and
 * called with a Lambda-shaped `Context`, so the local Lambda Invoke endpoint (invoke-api.ts beside this file) and the
 * local Step Functions runner (stand-ins/step-functions/server.ts) run exactly the cloud code (docs/architecture.md §5).
 */

/**
 * One Lambda function of the local stack: the runtime needs only these fields of a catalogue entry
 * (`functions/catalogue.ts`, `FunctionEntry`), so tests may register functions of their own.
 */
export interface LocalFunction {
  /** The function name (what `FunctionName` and ARNs refer to): letters, digits, `-` and `_`. */
  name: string;
  /** The handler module under the functions root (`functions/` by default), without extension; it exports `handler`. */
  handler: string;
  /**
   * Seconds before the invocation is reported as timed out (`Sandbox.Timedout`), like the function's configured
   * timeout in the cloud; also drives `context.getRemainingTimeInMillis()`. Default 3, Lambda's and CDK's default.
   */
  timeoutSeconds?: number;
  /** `context.memoryLimitInMB`; informational only locally, the deployed size in the cloud. Default 128. */
  memorySize?: number;
  /** An EventBridge Scheduler rate expression: the local scheduler stand-in (stand-ins/eventbridge-scheduler/scheduler.ts) invokes it on that rate. */
  schedule?: RateExpression;
}

/** The functions the local stack serves: the whole catalogue, the local-only ones included. */
export const localFunctions: readonly LocalFunction[] = catalogue;

/**
 * The Cognito triggers cognito-local runs (its `TriggerFunctions` config), from the catalogue's `cognitoTrigger`:
 * PreSignUp auto-confirms local accounts; PostConfirmation is the same handler the cloud user pool runs.
 */
export const COGNITO_TRIGGERS: Partial<Record<CognitoTrigger, string>> = Object.fromEntries(
  catalogue.flatMap((f) => (f.cognitoTrigger ? [[f.cognitoTrigger, f.name]] : [])),
);

/** The payload Lambda returns for a failed invocation, with `X-Amz-Function-Error: Unhandled`. */
export interface FunctionErrorPayload {
  /** The thrown error's `name` (custom errors must set it explicitly), or a `Runtime.*`/`Sandbox.*` type. */
  errorType: string;
  errorMessage: string;
  /** The stack trace, one line per entry (empty when the thrown value was not an Error). */
  trace: string[];
}

/** An invocation ended with a function error: the handler threw, timed out, or its module could not be loaded. */
export class LambdaFunctionError extends Error {
  override readonly name = 'LambdaFunctionError';
  constructor(
    readonly functionName: string,
    readonly payload: FunctionErrorPayload,
  ) {
    super(`${payload.errorType}: ${payload.errorMessage}`);
  }
}

/** No function of that name is registered (Lambda's `ResourceNotFoundException`); `message` is Lambda's text. */
export class FunctionNotFoundError extends Error {
  override readonly name = 'ResourceNotFoundException';
  constructor(readonly functionArn: string) {
    super(`Function not found: ${functionArn}`);
  }
}

/** Options of {@link createLambdaRuntime}. */
export interface LambdaRuntimeOptions {
  /** Absolute directory the `handler` paths are relative to. Default: the repository's `functions/`. */
  functionsDir?: string;
  /** Region used in ARNs and `invokedFunctionArn`. Default `us-east-1`. */
  region?: string;
  /** Account id used in ARNs. Default `000000000000`, the emulators' convention. */
  accountId?: string;
  /**
   * Checks each AWS call of a function that has a role against it, as IAM does in the cloud (infrastructure/local/iam/);
   * functions without one (local-only, a test's own) run unchecked. Default: no check.
   */
  iam?: IamCheck;
}

/** Per-invocation options of {@link LambdaRuntime.invoke}. */
export interface InvokeOptions {
  /** `context.awsRequestId`; the Invoke endpoint passes the request id it answers with. Default: a new UUID. */
  requestId?: string;
}

/** Runs the registered functions in this process. */
export interface LambdaRuntime {
  /**
   * Invokes a function with a JSON event and resolves with its JSON result (`null` when it returns nothing). Event
   * and result are copied as JSON would copy them over the wire; a result over Lambda's 6 MB is Lambda's error.
   *
   * @param nameOrArn a plain name, `name:qualifier`, or a full ARN `arn:aws:lambda:<region>:<account>:function:<name>[:qualifier]`
   * @throws {FunctionNotFoundError} when no function of that name is registered.
   * @throws {LambdaFunctionError} when the handler throws or rejects, exceeds its timeout, cannot be loaded, or
   *   returns more than {@link MAX_RESULT_BYTES} of JSON (`Function.ResponseSizeTooLarge`).
   */
  invoke(nameOrArn: string, event: unknown, options?: InvokeOptions): Promise<unknown>;
  /** Whether a function of that name (plain name or ARN) is registered. */
  has(nameOrArn: string): boolean;
  /** The unqualified ARN of a function name (registered or not), as Lambda prints it in errors. */
  functionArn(nameOrArn: string): string;
}

type Handler = (event: unknown, context: Context) => unknown;

const DEFAULT_FUNCTIONS_DIR = join(REPO_ROOT, 'functions');
const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

// Name, `name:qualifier`, partial ARN `<account>:function:<name>` or full ARN: the forms Lambda's FunctionName accepts.
const FUNCTION_REF =
  /^(?:arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:|\d{12}:function:)?([A-Za-z0-9_-]{1,64})(?::(\$LATEST|[A-Za-z0-9_-]+))?$/;

/**
 * The function name a `FunctionName` refers to.
 *
 * @returns the bare name (`echo` for `arn:aws:lambda:us-east-1:000000000000:function:echo:live`), or `undefined`
 *   when the value is not a valid function name or ARN.
 */
export function parseFunctionName(nameOrArn: string): string | undefined {
  return FUNCTION_REF.exec(nameOrArn)?.[1];
}

function qualifierOf(nameOrArn: string): string | undefined {
  return FUNCTION_REF.exec(nameOrArn)?.[2];
}

/** A thrown value in Lambda's error payload form (Node runtime: `errorType` is the error's `name`). */
export function toErrorPayload(error: unknown): FunctionErrorPayload {
  if (error instanceof LambdaFunctionError) return error.payload;
  if (error instanceof Error) {
    return {
      errorType: error.name,
      errorMessage: error.message,
      trace: (error.stack ?? `${error.name}: ${error.message}`).split('\n'),
    };
  }
  return { errorType: typeof error, errorMessage: String(error), trace: [] };
}

/**
 * The largest result Lambda returns from a synchronous invocation, as its JSON text in bytes (its error message
 * says 6291556).
 */
export const MAX_RESULT_BYTES = 6_291_556;

// Lambda serialises the event and the result; a copy with JSON's semantics gives handlers the same data (no Dates,
// no undefined, no shared objects with the caller) without escaping and parsing the strings (support/json-copy.ts).
function throughJson(value: unknown): unknown {
  return jsonCopy(value).value;
}

/**
 * The handler's result as Lambda returns it, or Lambda's error for one over {@link MAX_RESULT_BYTES} (the size is
 * measured exactly only when the copy's upper bound is over the limit).
 */
function resultOf(fn: LocalFunction, result: unknown): unknown {
  const { value, maxBytes } = jsonCopy(result);
  if (maxBytes > MAX_RESULT_BYTES && Buffer.byteLength(JSON.stringify(value)) > MAX_RESULT_BYTES) {
    throw new LambdaFunctionError(fn.name, {
      errorType: 'Function.ResponseSizeTooLarge',
      errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESULT_BYTES} bytes).`,
      trace: [],
    });
  }
  return value;
}

/** A new execution environment's log stream name: Lambda starts one per environment, not per invocation. */
function logStreamName(): string {
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return `${day}/[$LATEST]${randomBytes(16).toString('hex')}`;
}

/**
 * Lambda's per-invocation store, when this process serves concurrent invocations: `AWS_LAMBDA_MAX_CONCURRENCY` set,
 * as in an execution environment of Lambda Managed Instances (`npm start` sets it). Powertools then keeps each
 * invocation's log context and keys in it, so two functions running at once never log each other's names.
 */
function concurrentInvokeStore(): Promise<InvokeStoreBase> | undefined {
  return 'AWS_LAMBDA_MAX_CONCURRENCY' in process.env ? InvokeStore.getInstanceAsync() : undefined;
}

const unsupportedCallback = (): never => {
  throw new Error(
    'context.done/fail/succeed are not supported: return a value (or a Promise) from the handler',
  );
};

/**
 * Creates the in-process runtime for a set of functions. Each handler module is imported lazily on its first
 * invocation (the cold start) and reused afterwards. A failed load (`Runtime.ImportModuleError`) is not cached here,
 * as Lambda retries a failed init, but Node's module cache may keep an evaluation error until the process restarts.
 *
 * Differences from Lambda worth knowing: invocations run concurrently in one process and share module state; a
 * timed-out handler is reported as `Sandbox.Timedout` but keeps running in the background (it cannot be killed).
 *
 * @throws {Error} when two functions share a name or a name is invalid.
 */
export function createLambdaRuntime(
  functions: readonly LocalFunction[],
  options: LambdaRuntimeOptions = {},
): LambdaRuntime {
  const {
    functionsDir = DEFAULT_FUNCTIONS_DIR,
    region = 'us-east-1',
    accountId = '000000000000',
    iam,
  } = options;
  const byName = new Map<string, LocalFunction>();
  for (const fn of functions) {
    if (parseFunctionName(fn.name) !== fn.name) throw new Error(`Invalid Lambda function name: ${fn.name}`);
    if (byName.has(fn.name)) throw new Error(`Duplicate Lambda function name: ${fn.name}`);
    byName.set(fn.name, fn);
  }
  const modules = new Map<string, Promise<Handler>>();
  // Each function runs in one local "execution environment": one log stream for all its invocations.
  const logStreams = new Map<string, string>();
  const logStreamOf = (name: string) => {
    let stream = logStreams.get(name);
    if (stream === undefined) logStreams.set(name, (stream = logStreamName()));
    return stream;
  };

  const functionArn = (nameOrArn: string) =>
    `arn:aws:lambda:${region}:${accountId}:function:${parseFunctionName(nameOrArn) ?? nameOrArn}`;

  async function importHandler(fn: LocalFunction): Promise<Handler> {
    const url = pathToFileURL(resolve(functionsDir, `${fn.handler}.ts`)).href;
    let mod: { handler?: unknown };
    try {
      mod = (await import(url)) as { handler?: unknown };
    } catch (error) {
      const { errorMessage, trace } = toErrorPayload(error);
      throw new LambdaFunctionError(fn.name, { errorType: 'Runtime.ImportModuleError', errorMessage, trace });
    }
    if (typeof mod.handler !== 'function') {
      throw new LambdaFunctionError(fn.name, {
        errorType: 'Runtime.HandlerNotFound',
        errorMessage: `${fn.handler}.handler is undefined or not exported`,
        trace: [],
      });
    }
    return mod.handler as Handler;
  }

  function loadHandler(fn: LocalFunction): Promise<Handler> {
    let loading = modules.get(fn.name);
    if (!loading) {
      loading = importHandler(fn);
      modules.set(fn.name, loading);
      loading.catch(() => modules.delete(fn.name));
    }
    return loading;
  }

  async function invoke(
    nameOrArn: string,
    event: unknown,
    invokeOptions: InvokeOptions = {},
  ): Promise<unknown> {
    const name = parseFunctionName(nameOrArn);
    const fn = name === undefined ? undefined : byName.get(name);
    if (!fn) throw new FunctionNotFoundError(functionArn(nameOrArn));

    const requestId = invokeOptions.requestId ?? randomUUID();
    const store = await concurrentInvokeStore();
    const run = () => invokeLoaded(fn, nameOrArn, event, requestId);
    return store ? store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, run) : run();
  }

  async function invokeLoaded(
    fn: LocalFunction,
    nameOrArn: string,
    event: unknown,
    requestId: string,
  ): Promise<unknown> {
    const timeoutSeconds = fn.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    const handler = await loadHandler(fn);
    const qualifier = qualifierOf(nameOrArn);
    const invokedFunctionArn = nameOrArn.startsWith('arn:')
      ? nameOrArn
      : `${functionArn(fn.name)}${qualifier === undefined ? '' : `:${qualifier}`}`;
    // Like Lambda, the timeout counts from the start of the invocation, after init.
    const deadline = Date.now() + timeoutSeconds * 1000;
    const context: Context = {
      callbackWaitsForEmptyEventLoop: true,
      functionName: fn.name,
      functionVersion: '$LATEST',
      invokedFunctionArn,
      memoryLimitInMB: String(fn.memorySize ?? DEFAULT_MEMORY_MB),
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${fn.name}`,
      logStreamName: logStreamOf(fn.name),
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: unsupportedCallback,
      fail: unsupportedCallback,
      succeed: unsupportedCallback,
    };

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new LambdaFunctionError(fn.name, {
              errorType: 'Sandbox.Timedout',
              errorMessage: `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`,
              trace: [],
            }),
          ),
        timeoutSeconds * 1000,
      );
      // The handler's own pending work keeps the process alive if it must; the timeout alone should not.
      timer.unref();
    });
    try {
      const result = await Promise.race([
        runAsFunction({ functionName: fn.name, iam }, () =>
          Promise.resolve().then(() => handler(throughJson(event), context)),
        ),
        timedOut,
      ]);
      return resultOf(fn, result);
    } catch (error) {
      throw error instanceof LambdaFunctionError
        ? error
        : new LambdaFunctionError(fn.name, toErrorPayload(error));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    invoke,
    has: (nameOrArn) => {
      const name = parseFunctionName(nameOrArn);
      return name !== undefined && byName.has(name);
    },
    functionArn,
  };
}
