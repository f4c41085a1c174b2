import { markFailed, requireGeneration } from '../adapters/generations';
import { generationErrorOf } from '../domain/generation-errors';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import { likenessStopError } from '../domain/likeness-cap';
import { compensationInput } from './inputs/compensation';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task MarkFailed (function `generation-mark-failed`), after RefundCredits: ends the generation `failed`
 * (or `partial` when some headshots were saved before the failure) with an error the UI can show — the failure's own
 * message for user-facing errors (`NoUsablePhotosError`: 'None of your photos could be used: …'), a generic one
 * otherwise (never internals); a generation the likeness cap stopped gets the cap's message (domain/likeness-guard.ts).
 *
 * Input `{ generationId, userId, failure: { Error, Cause } }` → output `{ status, error: { code, message } }`.
 */
export const handler = withLambdaContext(async (event: unknown) => {
  const { generationId, userId, failure } = compensationInput.parse(event);
  const current = await requireGeneration(userId, generationId);
  // Stopped by the likeness cap: its message (why, what was refunded, other photos) beats the generic one.
  const error = current.likenessStop
    ? likenessStopError(
        current.likenessStop,
        Object.keys(current.slots).length,
        current.slotCount ?? HEADSHOTS_PER_GENERATION,
      )
    : generationErrorOf(failure?.Error, failure?.Cause);
  await markFailed(userId, generationId, error);
  const generation = await requireGeneration(userId, generationId);
  return { status: generation.status, error: generation.error ?? error };
}, workflowKeys);
