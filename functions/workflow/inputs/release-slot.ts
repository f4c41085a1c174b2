import * as z from 'zod/mini';
import { generationRef } from './generation-ref';

/**
 * The slot's result the ASL keeps at `$.call` (FinishHeadshot's, or CallProvider's when it ended without an image:
 * `saved` before, `throttled`), or the Catch's `{ Error, Cause }` when either failed.
 */
export const callResult = z.union([
  z.object({
    outcome: z.enum(['saved', 'throttled']),
    headshotId: z.nullable(z.string()),
    retryAfterMs: z.nullable(z.number()),
  }),
  z.object({ Error: z.string(), Cause: z.optional(z.string()) }),
]);

/** ReleaseProviderSlot: the lease, how the call ended, the slot's retries and calls so far. */
export const releaseSlotInput = z.extend(generationRef, {
  slot: z.number().check(z.int(), z.gte(0)),
  leaseId: z.string().check(z.minLength(1)),
  call: callResult,
  retries: z.record(z.string(), z.number().check(z.int(), z.gte(0))),
  /** The slot's provider calls before this one (0 for its first). */
  calls: z._default(z.number().check(z.int(), z.gte(0)), 0),
  /** When the generation's execution started (ISO 8601): its deadline counts from here. */
  startedAt: z.iso.datetime({ offset: true }),
});
