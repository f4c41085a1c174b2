import * as z from 'zod/mini';
import { useEnglishIssueMessages } from '../common/zod-locale';
import { getGeneration } from '../adapters/generations';
import { compensateGeneration } from '../use-cases/compensate-generation';
import { errorFor } from '../use-cases/reconcile-generation';
import { isTerminal } from '../domain/generation-status';
import { logger } from '../common/logger';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

// Parse errors of these payloads end up in the execution's history: give them zod's English messages.
useEnglishIssueMessages();

/**
 * The EventBridge "Step Functions Execution Status Change" event for an execution that ended FAILED, TIMED_OUT or
 * ABORTED (AWS docs, "Automating Step Functions event delivery with EventBridge"). `detail.input` is the execution's
 * input as a JSON string.
 */
const executionEndedEvent = z.object({
  detail: z.object({
    executionArn: z.string(),
    status: z.enum(['FAILED', 'TIMED_OUT', 'ABORTED']),
    input: z.nullish(z.string()),
  }),
});

const executionInput = z.object({
  generationId: z.string().check(z.minLength(1)),
  userId: z.string().check(z.minLength(1)),
});

/**
 * Function `generation-execution-ended`, run by an EventBridge rule when a generation execution ends FAILED,
 * TIMED_OUT or ABORTED. An execution that times out or is stopped never reaches the workflow's own Catch, so without
 * this the reserved credits would wait for the wizard's next poll (`GET /api/generations/{id}` reconciles too): this
 * applies the same idempotent compensation — refund what was not delivered, mark the generation failed — at once.
 * A generation that already ended is left alone.
 *
 * @returns `{ compensated: boolean }`
 */
export const handler = withLambdaContext(async (event: unknown): Promise<{ compensated: boolean }> => {
  const { detail } = executionEndedEvent.parse(event);
  const input = executionInput.safeParse(JSON.parse(detail.input ?? 'null'));
  if (!input.success) {
    logger.warn('Ended execution without a generation input', { executionArn: detail.executionArn });
    return { compensated: false };
  }
  const { userId, generationId } = input.data;
  const generation = await getGeneration(userId, generationId);
  if (!generation || isTerminal(generation.status)) return { compensated: false };
  logger.warn('Compensating a generation whose execution ended early', {
    generationId,
    status: detail.status,
  });
  await compensateGeneration(userId, generationId, errorFor(detail.status));
  return { compensated: true };
}, workflowKeys);
