import * as z from 'zod/mini';
import { generationRef } from './generation-ref';

/**
 * EnterLine (`lambda:invoke.waitForTaskToken`): the waiting Task's token, the slot, its index in the Map, its call
 * number and the execution's start.
 */
export const enterLineInput = z.extend(generationRef, {
  taskToken: z.string().check(z.minLength(1), z.maxLength(1024)),
  slot: z.number().check(z.int(), z.gte(0)),
  round: z.number().check(z.int(), z.gte(0)),
  call: z.number().check(z.int(), z.gte(0)),
  startedAt: z.iso.datetime({ offset: true }),
});
