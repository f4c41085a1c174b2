import * as z from 'zod/mini';
import { SLOTS } from '../../domain/generation';
import { buildPromptInput } from './build-prompt';

/** GenerateHeadshot (one Map iteration): the slot, the prompt and the normalized reference keys. */
export const generateHeadshotInput = z.extend(buildPromptInput, {
  slot: z.number().check(
    z.int(),
    z.refine((n) => SLOTS.includes(n), 'must be one of the generation slots'),
  ),
  prompt: z.string().check(z.minLength(1)),
  references: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(3)),
});
