import * as z from 'zod';
import { BACKGROUNDS, SLOTS, STYLES } from '../domain/generation';

/**
 * The payloads the generation workflow (statemachines/generation.asl.json) hands each task, parsed with zod so a
 * definition that drifts from the code fails loudly at the first task instead of half-way through.
 */

const id = z.string().min(1).max(128);

/** Every task gets the generation and its owner. */
export const generationRef = z.object({ generationId: id, userId: id });

/** A Catch's `{ Error, Cause }`, as Step Functions puts it at `ResultPath` (`$.failure`). */
export const failure = z
  .object({ Error: z.string().optional(), Cause: z.string().optional() })
  .partial()
  .optional();

/** PrepareReferences: `{ generationId, userId, referenceKeys }`. */
export const prepareReferencesInput = generationRef.extend({
  referenceKeys: z.array(z.string().min(1)).min(1).max(10),
});

/** BuildPrompt: `{ generationId, userId, style, background }`. */
export const buildPromptInput = generationRef.extend({
  style: z.enum(STYLES),
  background: z.enum(BACKGROUNDS),
});

/** GenerateHeadshot (one Map iteration): the slot, the prompt and the normalized reference keys. */
export const generateHeadshotInput = buildPromptInput.extend({
  slot: z
    .number()
    .int()
    .refine((n) => SLOTS.includes(n), 'must be one of the generation slots'),
  prompt: z.string().min(1),
  references: z.array(z.string().min(1)).min(1).max(3),
});

/** RefundCredits and MarkFailed: the generation and the failure that was caught. */
export const compensationInput = generationRef.extend({ failure });

/** AcquireProviderSlot (each try of one slot): the slot, its place among its generation's slots, priority, start. */
export const acquireSlotInput = generationRef.extend({
  slot: z.number().int().min(0),
  round: z.number().int().min(0),
  priority: z.enum(['priority', 'standard']),
  startedAt: z.iso.datetime({ offset: true }),
});

/** The GenerateHeadshot result the ASL keeps at `$.call`, or the Catch's `{ Error, Cause }` when it failed. */
export const callResult = z.union([
  z.object({
    outcome: z.enum(['saved', 'throttled']),
    headshotId: z.string().nullable(),
    retryAfterMs: z.number().nullable(),
  }),
  z.object({ Error: z.string(), Cause: z.string().optional() }),
]);

/** ReleaseProviderSlot: the lease, how the call ended, and the slot's retries so far. */
export const releaseSlotInput = generationRef.extend({
  slot: z.number().int().min(0),
  leaseId: z.string().min(1),
  call: callResult,
  retries: z.record(z.string(), z.number().int().min(0)),
});
