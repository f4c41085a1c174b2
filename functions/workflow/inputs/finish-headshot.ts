import * as z from 'zod/mini';
import { buildPromptInput } from './build-prompt';
import { referenceKeys, slotNumber } from './call-provider';

/**
 * FinishHeadshot (after CallProvider answered `generated`): the slot, its references (read only when the
 * generation's reference descriptor must be recomputed for the current identity model) and the name of the provider
 * that made the image (recorded on the headshot; `local` ones are previews). The image itself is in S3 at
 * `providerImageKey(userId, generationId, slot)`: the payload names no object key, so no input can point the task
 * at another customer's objects.
 */
export const finishHeadshotInput = z.extend(buildPromptInput, {
  slot: slotNumber,
  references: referenceKeys,
  provider: z.string().check(z.minLength(1), z.maxLength(32)),
});
