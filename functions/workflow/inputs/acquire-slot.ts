import * as z from 'zod/mini';
import { generationRef } from './generation-ref';

/** AcquireProviderSlot (each try of one slot): the slot, its place among its generation's slots, priority, start. */
export const acquireSlotInput = z.extend(generationRef, {
  slot: z.number().check(z.int(), z.gte(0)),
  round: z.number().check(z.int(), z.gte(0)),
  priority: z.enum(['priority', 'standard']),
  startedAt: z.iso.datetime({ offset: true }),
});
