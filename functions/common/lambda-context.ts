import type { Context } from 'aws-lambda';
import { isExpectedError } from './expected-errors';
import { logger } from './logger';
import { countMetric } from './metrics';
import { traced, tracer } from './tracer';

/** Log keys of one invocation beside the Lambda context, e.g. `{ generationId, slot }`. */
export type LogKeys = Record<string, string | number | boolean>;

/**
 * Wraps a handler so every log line of its invocation carries the Lambda context (Powertools `addContext`: function
 * name, request id, cold start, memory) and the keys `keysOf` picks from the event; the keys are cleared when the
 * invocation ends, so the next one on this execution environment starts clean. The same edge for every handler:
 * the HTTP edge (functions/http/handler.ts) and the workflow, trigger and scheduled handlers.
 *
 * Where several invocations share an environment (Lambda's multi-concurrency, and the local runtime, which runs every
 * function in one process — docs/architecture.md §5), Powertools keeps context and keys per invocation in Lambda's
 * InvokeStore, so concurrent invocations never log each other's names.
 *
 * An error that is an expected outcome (common/expected-errors.ts) is still thrown — the workflow's Retry/Catch paths
 * depend on it — and counted as `ExpectedErrors` of this function, timestamped at the invocation's start like
 * Lambda's own `Errors`, so the function's alarm pages only on the others. In Lambda the invocation is traced
 * (common/tracer.ts).
 *
 * @param handler the handler's logic; `context` is absent only when a test calls it directly
 * @param keysOf the invocation's keys from its event (never secrets or personal data: ids only)
 */
export function withLambdaContext<E, R>(
  handler: (event: E, context?: Context) => Promise<R>,
  keysOf?: (event: E) => LogKeys,
): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    const startedAt = Date.now();
    if (context) logger.addContext(context);
    if (keysOf) logger.appendKeys(keysOf(event));
    try {
      // In Lambda, the invocation is one X-Ray subsegment with the cold start and service annotated (Powertools'
      // captureLambdaHandler does the same); elsewhere tracing is off and this just runs the handler.
      return await traced(`## ${process.env._HANDLER ?? 'handler'}`, () => {
        tracer.annotateColdStart();
        tracer.addServiceNameAnnotation();
        return handler(event, context);
      });
    } catch (error) {
      if (isExpectedError(error)) countExpectedError(error, startedAt, context);
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
}

/**
 * The keys of a workflow task's input: the generation and, for per-slot tasks, the slot — what an operator filters
 * a generation's logs by. Inputs without them give no keys (the task's own zod schema still rejects them).
 */
export function workflowKeys(event: unknown): LogKeys {
  if (typeof event !== 'object' || event === null) return {};
  const { generationId, slot } = event as { generationId?: unknown; slot?: unknown };
  return {
    ...(typeof generationId === 'string' ? { generationId } : {}),
    ...(typeof slot === 'number' ? { slot } : {}),
  };
}

/** One `ExpectedErrors` for this function (no function name, e.g. a test calling the handler: nothing to count). */
function countExpectedError(error: Error, startedAt: number, context?: Context): void {
  const functionName = context?.functionName ?? process.env.AWS_LAMBDA_FUNCTION_NAME;
  if (!functionName) return;
  countMetric(
    'ExpectedErrors',
    1,
    { error: error.name },
    { dimensions: { function: functionName }, timestamp: startedAt },
  );
}
