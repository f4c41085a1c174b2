import {
  generationStop,
  providerCallsUsedUp,
  reserveProviderCall,
  stopGenerationCalls,
} from '../adapters/likeness-cap';
import { LikenessStoppedError, ProviderCallCapError, type LikenessStop } from '../domain/likeness-cap';

/**
 * The likeness cap before a provider call (functions/domain/likeness-guard.ts, docs/decisions/004-likeness-retry-cap.md):
 * a slot of a stopped generation, or of an account whose provider calls for the day are used up, makes no call. It
 * reads no settings: the allowance was set when the generation started (use-cases/likeness-cap.ts).
 */

/** Stops the generation for `reason` and ends this slot without a provider call. */
async function refuseSlot(sub: string, generationId: string, reason: LikenessStop): Promise<never> {
  if (reason === 'limit') {
    await stopGenerationCalls(sub, generationId, 'limit');
    throw new ProviderCallCapError(`The provider calls of ${sub} for the day are used up`);
  }
  throw new LikenessStoppedError(
    `Generation ${generationId} stopped: its headshots kept failing the likeness check`,
  );
}

/**
 * Before a slot takes a place in the provider line (EnterLine): a stopped generation, or a day without
 * calls left, ends the slot here, so it never holds up other customers.
 *
 * @throws {LikenessStoppedError | ProviderCallCapError} the slot is refunded
 */
export async function assertSlotMayQueue(sub: string, generationId: string): Promise<void> {
  const [stop, usedUp] = await Promise.all([
    generationStop(sub, generationId),
    providerCallsUsedUp(sub, generationId),
  ]);
  if (stop) return refuseSlot(sub, generationId, stop);
  if (usedUp) return refuseSlot(sub, generationId, 'limit');
}

/**
 * Right before a provider call (CallProvider, with the generation item it read): counts the call against the
 * day's allowance, atomically, or refuses it.
 *
 * @throws {LikenessStoppedError | ProviderCallCapError} no call is made; the slot is refunded
 */
export async function admitProviderCall(generation: {
  id: string;
  userId: string;
  likenessStop?: LikenessStop;
}): Promise<void> {
  if (generation.likenessStop) return refuseSlot(generation.userId, generation.id, generation.likenessStop);
  if (!(await reserveProviderCall(generation.userId, generation.id)))
    return refuseSlot(generation.userId, generation.id, 'limit');
}
