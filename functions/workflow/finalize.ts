import { finalizeGeneration } from '../use-cases/compensate-generation';
import { generationRef } from './inputs/generation-ref';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task Finalize (function `generation-finalize`): closes the generation, refunds 1 credit per slot
 * without a headshot (ref `<generationId>#slot-<n>`) and ends it `succeeded` (6 headshots) or `partial`, progress
 * 100, stage `done`. Idempotent.
 *
 * Input `{ generationId, userId }` → output `{ status, imagesSaved, creditsRefunded }`.
 *
 * @throws {NoHeadshotsError} when no slot delivered: the workflow then refunds everything and marks it failed
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId } = generationRef.parse(event);
  const generation = await finalizeGeneration(userId, generationId);
  return {
    status: generation.status,
    imagesSaved: Object.keys(generation.slots).length,
    creditsRefunded: generation.creditsRefunded,
  };
}, workflowKeys);
