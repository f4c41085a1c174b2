import type { SQSEvent } from 'aws-lambda';
import { dispatch, waitUntil } from '../adapters/provider-queue/dispatch';
import { queueUsage } from '../adapters/provider-queue/usage';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/** The function's timeout (functions/catalogue.ts `provider-dispatcher`), when no Lambda context says what is left. */
const TIMEOUT_MS = 60_000;

/**
 * Function `provider-dispatcher`, fed by the wake-up queue (an SQS event source mapping, at most 2 at once): every
 * message is only a nudge ("a slot entered the line", "a lease came back", "the next token is due"), so one batch
 * runs one dispatch, whatever it holds (adapters/provider-queue/dispatch.ts), which may wait within the invocation for
 * the bucket's next tokens for up to 20 s, well before the function's timeout. A failure fails the batch and SQS
 * delivers it again.
 *
 * @returns `{ batchItemFailures: [] }` (the whole batch succeeded)
 */
export const handler = withLambdaContext(async (event: SQSEvent, context) => {
  const remainingMs = context?.getRemainingTimeInMillis() ?? TIMEOUT_MS;
  const result = await dispatch({ waitUntil: waitUntil(Date.now(), remainingMs) });
  logger.info('Dispatched', {
    ...result,
    messages: event.Records.length,
    usage: JSON.stringify(queueUsage()),
  });
  return { batchItemFailures: [] as { itemIdentifier: string }[] };
});
