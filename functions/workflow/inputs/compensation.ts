import * as z from 'zod/mini';
import { generationRef } from './generation-ref';

/** A Catch's `{ Error, Cause }`, as Step Functions puts it at `ResultPath` (`$.failure`). */
export const failure = z.optional(
  z.partial(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
);

/** RefundCredits and MarkFailed: the generation and the failure that was caught. */
export const compensationInput = z.extend(generationRef, { failure });
