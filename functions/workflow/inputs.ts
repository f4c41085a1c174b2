import { z } from 'zod';
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
