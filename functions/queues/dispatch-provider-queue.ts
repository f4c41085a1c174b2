import type { SQSEvent } from 'aws-lambda';
import { DISPATCHER_TIMEOUT_MS, waitUntil } from '../domain/provider-queue-dispatch';
import { dispatchProviderQueue } from '../use-cases/dispatch-provider-queue';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-dispatcher`, fed by the wake-up queue (an SQS event source mapping, at most 2 at once): every
 * wake-up message is only a nudge ("a slot was enqueued", "a lease came back", "the next token is due"), so one batch
 * runs one dispatch, whatever it holds (use-cases/dispatch-provider-queue.ts), which may wait within the invocation
 * for the bucket's next tokens for up to 20 s, well before the function's timeout. A failure fails the batch and SQS
 * delivers it again.
 *
 * @returns `{ batchItemFailures: [] }` (the whole batch succeeded)
 */
export const handler = withLambdaContext(async (event: SQSEvent, context) => {
  const remainingMs = context?.getRemainingTimeInMillis() ?? DISPATCHER_TIMEOUT_MS;
  const { usage, ...result } = await dispatchProviderQueue({ waitUntil: waitUntil(Date.now(), remainingMs) });
  logger.info('Dispatched', { ...result, messages: event.Records.length, usage: JSON.stringify(usage) });
  return { batchItemFailures: [] as { itemIdentifier: string }[] };
});
