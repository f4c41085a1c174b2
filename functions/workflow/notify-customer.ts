import { notifyCustomer, type ReadyMailOutcome } from '../use-cases/notify-customer';
import { generationRef } from './inputs/generation-ref';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task NotifyCustomer (function `generation-notify-customer`), the last step of every path that ends a
 * generation: the customer's one "ready" e-mail, unless they turned it off or the generation was a regeneration
 * (use-cases/notify-customer.ts). Never throws.
 *
 * Input `{ generationId, userId }` → output `{ sent: boolean, skipped?: reason }`.
 */
export const handler = withLambdaContext(async (event: unknown): Promise<ReadyMailOutcome> => {
  const { generationId, userId } = generationRef.parse(event);
  return notifyCustomer(userId, generationId);
}, workflowKeys);
