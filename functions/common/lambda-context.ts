import type { Context } from 'aws-lambda';
import { logger } from './logger';

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
 * @param handler the handler's logic; `context` is absent only when a test calls it directly
 * @param keysOf the invocation's keys from its event (never secrets or personal data: ids only)
 */
export function withLambdaContext<E, R>(
  handler: (event: E, context?: Context) => Promise<R>,
  keysOf?: (event: E) => LogKeys,
): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    if (context) logger.addContext(context);
    if (keysOf) logger.appendKeys(keysOf(event));
    try {
      return await handler(event, context);
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
