import { finishHeadshot, type FinishHeadshotResult } from '../use-cases/finish-headshot';
import { finishHeadshotInput } from './inputs/finish-headshot';
import { withLambdaContext, workflowKeys } from '../common/lambda-context';

/**
 * Workflow task FinishHeadshot (function `generation-finish-headshot`, 2 GB), after CallProvider answered
 * `generated` (docs/architecture.md §4): the provider's image becomes the slot's headshot when it looks like the
 * customer — its four files stored and its item saved — and the image in `work/` is deleted
 * (use-cases/finish-headshot.ts). Safe to run again for the same slot: a saved slot returns its headshot.
 *
 * Input `{ generationId, userId, slot, style, background, references, provider }` → output {@link FinishHeadshotResult}.
 *
 * @throws {ProviderInvalidOutputError} the provider's bytes are no image: the slot is refunded
 * @throws {ProviderImageMissingError} nothing to finish (not retried here; the slot goes back in line once, then
 *   is refunded: domain/slot-outcomes.ts)
 * @throws {GenerationClosedError} the generation was compensated meanwhile (not retried; nothing kept)
 * @throws {ReferenceMissingError} a reference photo needed to recompute the descriptor is gone (not retried)
 * @throws {LikenessRejectedError} (name `LikenessRejected`) the headshot has no face or its likeness to the
 *   customer is under LIKENESS_THRESHOLD: nothing is stored; the slot goes back in line once (domain/slot-outcomes.ts),
 *   then is refunded — or at once when the generation's failed checks reach the cap (use-cases/likeness-cap.ts)
 */
export const handler = withLambdaContext(
  async (event: unknown): Promise<FinishHeadshotResult> => finishHeadshot(finishHeadshotInput.parse(event)),
  workflowKeys,
);
