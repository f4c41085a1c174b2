import * as z from 'zod/mini';
import { SLOTS } from '../../domain/slots';
import { buildPromptInput } from './build-prompt';

/** A slot of the generation (0-5). */
export const slotNumber = z.number().check(
  z.int(),
  z.refine((n) => SLOTS.includes(n), 'must be one of the generation slots'),
);

/** The normalized reference photos' keys (1-3, best first), as PrepareReferences chose them. */
export const referenceKeys = z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(3));

/**
 * CallProvider (one Map iteration): the slot, the prompt, the normalized reference keys, and the lease the provider
 * queue admitted the call with (its permit goes back as soon as the provider answers; absent in executions started
 * before the workflow passed it).
 */
export const callProviderInput = z.extend(buildPromptInput, {
  slot: slotNumber,
  prompt: z.string().check(z.minLength(1)),
  references: referenceKeys,
  leaseId: z.optional(z.string().check(z.minLength(1))),
});
