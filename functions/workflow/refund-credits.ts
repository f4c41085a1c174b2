import { refundUndelivered } from '../use-cases/compensate-generation';
import { logger } from '../common/logger';
import { compensationInput } from './inputs/compensation';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task RefundCredits (function `generation-refund-credits`), the first compensation step after any
 * caught failure: closes the generation (no late slot may save after this) and refunds 1 credit for every slot
 * without a headshot, each with ref `<generationId>#slot-<n>` — so retries, a Finalize that already refunded some,
 * and the API's reconciliation never pay twice.
 *
 * Input `{ generationId, userId, failure: { Error, Cause } }` → output `{ creditsRefunded, imagesSaved }`.
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, failure } = compensationInput.parse(event);
  const generation = await refundUndelivered(userId, generationId);
  logger.warn('Generation failed; undelivered credits refunded', {
    error: failure?.Error,
    creditsRefunded: generation.creditsRefunded,
  });
  return { creditsRefunded: generation.creditsRefunded, imagesSaved: Object.keys(generation.slots).length };
}, workflowKeys);
