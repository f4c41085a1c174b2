import type { SQSEvent } from 'aws-lambda';
import { dispatch } from '../adapters/provider-queue/dispatch';
import { queueUsage } from '../adapters/provider-queue/usage';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-dispatcher`, fed by the wake-up queue (an SQS event source mapping, at most 2 at once): every
 * message is only a nudge ("a slot entered the line", "a lease came back", "the next token is due"), so one batch
 * runs one dispatch, whatever it holds (adapters/provider-queue/dispatch.ts). A failure fails the batch and SQS
 * delivers it again.
 *
 * @returns `{ batchItemFailures: [] }` (the whole batch succeeded)
 */
export const handler = withLambdaContext(async (event: SQSEvent) => {
  const result = await dispatch();
  logger.info('Dispatched', {
    ...result,
    messages: event.Records.length,
    usage: JSON.stringify(queueUsage()),
  });
  return { batchItemFailures: [] as { itemIdentifier: string }[] };
});
