import * as z from 'zod/mini';
import { useEnglishIssueMessages } from '../common/zod-locale';
import { compensateEndedExecution } from '../use-cases/reconcile-generation';
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
 * applies the same idempotent compensation — refund what was not delivered, mark the generation failed — at once
 * (use-cases/reconcile-generation.ts `compensateEndedExecution`). A generation that already ended is left alone.
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
  return { compensated: await compensateEndedExecution(userId, generationId, detail.status) };
}, workflowKeys);
