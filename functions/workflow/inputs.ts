import * as z from 'zod/mini';
import { useEnglishIssueMessages } from '../common/zod-locale';
import { BACKGROUNDS, SLOTS, STYLES } from '../domain/generation';

// Parse errors of these payloads end up in the execution's history: give them zod's English messages.
useEnglishIssueMessages();

/**
 * The payloads the generation workflow (statemachines/generation.asl.json) hands each task, parsed with zod so a
 * definition that drifts from the code fails loudly at the first task instead of half-way through.
 */

const id = z.string().check(z.minLength(1), z.maxLength(128));

/** Every task gets the generation and its owner. */
export const generationRef = z.object({ generationId: id, userId: id });

/** A Catch's `{ Error, Cause }`, as Step Functions puts it at `ResultPath` (`$.failure`). */
export const failure = z.optional(
  z.partial(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
);

/** PrepareReferences: `{ generationId, userId, referenceKeys }`. */
export const prepareReferencesInput = z.extend(generationRef, {
  referenceKeys: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(10)),
});

/** BuildPrompt: `{ generationId, userId, style, background }`. */
export const buildPromptInput = z.extend(generationRef, {
  style: z.enum(STYLES),
  background: z.enum(BACKGROUNDS),
});

/** GenerateHeadshot (one Map iteration): the slot, the prompt and the normalized reference keys. */
export const generateHeadshotInput = z.extend(buildPromptInput, {
  slot: z.number().check(
    z.int(),
    z.refine((n) => SLOTS.includes(n), 'must be one of the generation slots'),
  ),
  prompt: z.string().check(z.minLength(1)),
  references: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(3)),
});

/** RefundCredits and MarkFailed: the generation and the failure that was caught. */
export const compensationInput = z.extend(generationRef, { failure });

/** AcquireProviderSlot (each try of one slot): the slot, its place among its generation's slots, priority, start. */
export const acquireSlotInput = z.extend(generationRef, {
  slot: z.number().check(z.int(), z.gte(0)),
  round: z.number().check(z.int(), z.gte(0)),
  priority: z.enum(['priority', 'standard']),
  startedAt: z.iso.datetime({ offset: true }),
});

/** The GenerateHeadshot result the ASL keeps at `$.call`, or the Catch's `{ Error, Cause }` when it failed. */
export const callResult = z.union([
  z.object({
    outcome: z.enum(['saved', 'throttled']),
    headshotId: z.nullable(z.string()),
    retryAfterMs: z.nullable(z.number()),
  }),
  z.object({ Error: z.string(), Cause: z.optional(z.string()) }),
]);

/** ReleaseProviderSlot: the lease, how the call ended, and the slot's retries so far. */
export const releaseSlotInput = z.extend(generationRef, {
  slot: z.number().check(z.int(), z.gte(0)),
  leaseId: z.string().check(z.minLength(1)),
  call: callResult,
  retries: z.record(z.string(), z.number().check(z.int(), z.gte(0))),
});
