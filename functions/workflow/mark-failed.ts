import { markGenerationFailed } from '../use-cases/compensate-generation';
import { compensationInput } from './inputs/compensation';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task MarkFailed (function `generation-mark-failed`), after RefundCredits: ends the generation `failed`
 * (or `partial` when some headshots were saved before the failure) with an error the UI can show
 * (use-cases/compensate-generation.ts `markGenerationFailed`).
 *
 * Input `{ generationId, userId, failure: { Error, Cause } }` → output `{ status, error: { code, message } }`.
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, failure } = compensationInput.parse(event);
  return markGenerationFailed(userId, generationId, failure);
}, workflowKeys);
