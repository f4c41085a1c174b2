import { randomUUID } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FunctionNotFoundError,
  LambdaFunctionError,
  toErrorPayload,
  type FunctionErrorPayload,
  type LambdaRuntime,
} from './runtime';
import type { LocalLog } from '../../support/log';

/*
 * Lambda's asynchronous invocation (InvocationType Event, how EventBridge invokes its Lambda targets) in the local
 * runtime: the event is accepted at once, a run that throws is run again after Lambda's delays, and when the retries
 * are spent (or the event grew too old) its invocation record goes to the on-failure destination — in the cloud an
 * SQS dead-letter queue, locally a JSON Lines file beside a log line.
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html
 */

/** The function's asynchronous-invocation settings (`AWS::Lambda::EventInvokeConfig`). */
export interface AsyncInvokeSettings {
  /** Runs after the first that a function error gets (0-2). */
  retryAttempts: number;
  /** An event older than this is not run again (60-21600 s). */
  maxEventAgeSeconds: number;
}

/**
 * Lambda's wait before each retry of a failed asynchronous run, in ms: one minute before the second attempt, two
 * before the third.
 */
export const LAMBDA_ASYNC_RETRY_DELAYS_MS: readonly number[] = [60_000, 120_000];

/**
 * Why a record went to the on-failure destination: Lambda's two conditions, plus `LocalStackStopped` for an event
 * still waiting for a retry when the local stack stopped (the cloud would have run it; nothing is dropped silently).
 */
export type FailureCondition = 'RetriesExhausted' | 'EventAgeExceeded' | 'LocalStackStopped';

/**
 * The invocation record Lambda sends to an on-failure destination (the body of the dead-letter queue's message):
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html
 */
export interface InvocationRecord {
  version: '1.0';
  /** ISO 8601. */
  timestamp: string;
  requestContext: {
    requestId: string;
    functionArn: string;
    condition: FailureCondition;
    approximateInvokeCount: number;
  };
  /** The event, as the function received it. */
  requestPayload: unknown;
  responseContext: { statusCode: 200; executedVersion: '$LATEST'; functionError: 'Unhandled' };
  /** The last run's error payload. */
  responsePayload: FunctionErrorPayload;
}

/** Where the records of events that failed every attempt go. */
export type OnFailureDestination = (record: InvocationRecord) => Promise<void>;

/** Runs functions asynchronously, with Lambda's retries and on-failure destination. */
export interface AsyncInvoker {
  /**
   * Accepts `event` for `functionName` and returns at once (Lambda's 202); the runs happen in the background.
   *
   * @throws {FunctionNotFoundError} when no such function is registered (Lambda answers the Invoke call 404).
   */
  invoke(
    functionName: string,
    event: unknown,
    settings: AsyncInvokeSettings,
    onFailure: OnFailureDestination,
  ): void;
  /** Resolves once nothing runs and nothing waits for a retry (tests wait for this). */
  idle(): Promise<void>;
  /** Waits for the runs in progress; events waiting for a retry go to their destination as `LocalStackStopped`. */
  stop(): Promise<void>;
}

/**
 * An {@link AsyncInvoker} over the local Lambda runtime.
 *
 * @param options.retryDelaysMs the wait before each retry (default Lambda's, {@link LAMBDA_ASYNC_RETRY_DELAYS_MS});
 *   tests shorten it so a failing function reaches its destination without minutes of waiting
 */
export function createAsyncInvoker(
  runtime: LambdaRuntime,
  options: { log: LocalLog; retryDelaysMs?: readonly number[] },
): AsyncInvoker {
  const { log, retryDelaysMs = LAMBDA_ASYNC_RETRY_DELAYS_MS } = options;
  const running = new Set<Promise<void>>();
  const waiting = new Map<NodeJS.Timeout, () => Promise<void>>();
  let stopped = false;

  const track = (work: Promise<void>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };

  function invoke(
    functionName: string,
    event: unknown,
    settings: AsyncInvokeSettings,
    onFailure: OnFailureDestination,
  ): void {
    if (!runtime.has(functionName)) throw new FunctionNotFoundError(runtime.functionArn(functionName));
    const requestId = randomUUID();
    const acceptedAt = Date.now();
    const record = (condition: FailureCondition, attempts: number, error: unknown): InvocationRecord => ({
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId,
        functionArn: `${runtime.functionArn(functionName)}:$LATEST`,
        condition,
        approximateInvokeCount: attempts,
      },
      requestPayload: event,
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: toErrorPayload(error),
    });
    const deliver = (condition: FailureCondition, attempts: number, error: unknown) =>
      onFailure(record(condition, attempts, error)).catch((failure: unknown) =>
        log.error(`${functionName}: the on-failure destination failed too: ${String(failure)}`),
      );

    const attempt = async (n: number): Promise<void> => {
      try {
        // Every retry of an asynchronous event keeps its request id, as in Lambda.
        await runtime.invoke(functionName, event, { requestId });
        return;
      } catch (error) {
        const payload = error instanceof LambdaFunctionError ? error.payload : toErrorPayload(error);
        log.error(
          `${functionName} (async, attempt ${n}) failed: ${payload.errorType}: ${payload.errorMessage}`,
        );
        const delay = retryDelaysMs[n - 1] ?? retryDelaysMs.at(-1) ?? 0;
        if (n > settings.retryAttempts) return deliver('RetriesExhausted', n, error);
        if (Date.now() + delay - acceptedAt > settings.maxEventAgeSeconds * 1000) {
          return deliver('EventAgeExceeded', n, error);
        }
        if (stopped) return deliver('LocalStackStopped', n, error);
        const retry = () => attempt(n + 1);
        const timer = setTimeout(() => {
          waiting.delete(timer);
          track(retry());
        }, delay);
        waiting.set(timer, () => deliver('LocalStackStopped', n, error));
      }
    };
    track(attempt(1));
  }

  return {
    invoke,
    async idle() {
      while (running.size > 0 || waiting.size > 0) {
        if (running.size > 0) await Promise.all([...running]);
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async stop() {
      stopped = true;
      while (running.size > 0) await Promise.all([...running]);
      const pending = [...waiting];
      waiting.clear();
      for (const [timer] of pending) clearTimeout(timer);
      await Promise.all(pending.map(([, drop]) => drop()));
    },
  };
}

/**
 * An on-failure destination that appends each record to `<dir>/<name>.jsonl` (one JSON record a line, as the
 * dead-letter queue's messages would read) and logs one line saying where it is.
 */
export function deadLetterFile(dir: string, name: string, log: LocalLog): OnFailureDestination {
  const path = join(dir, `${name}.jsonl`);
  return async (record) => {
    await mkdir(dir, { recursive: true });
    await appendFile(path, `${JSON.stringify(record)}\n`);
    const { condition, approximateInvokeCount } = record.requestContext;
    log.error(
      `dead letter: ${name} (${condition} after ${approximateInvokeCount} attempt(s): ` +
        `${record.responsePayload.errorType}) — the invocation record is in ${path}`,
    );
  };
}
