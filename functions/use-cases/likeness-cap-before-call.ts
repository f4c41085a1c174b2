import {
  generationStop,
  providerCallsUsedUp,
  reserveProviderCall,
  stopGenerationCalls,
} from '../adapters/likeness-cap';
import { LikenessStoppedError, ProviderCallCapError, type LikenessStop } from '../domain/likeness-cap';

/**
 * The likeness cap before a provider call (domain/likeness-cap.ts, docs/decisions/004-likeness-retry-cap.md): a slot
 * of a stopped generation, or of an account whose provider calls for the day are used up, makes no call. It reads no
 * settings: the day's allowance was set when the generation started (use-cases/likeness-cap.ts).
 */

/** What the likeness cap before a call needs from the outside world: the generation's stop, the day's counter. */
export interface LikenessCapBeforeCallPorts {
  generationStop: typeof generationStop;
  providerCallsUsedUp: typeof providerCallsUsedUp;
  reserveProviderCall: typeof reserveProviderCall;
  stopGenerationCalls: typeof stopGenerationCalls;
}

const adapters: LikenessCapBeforeCallPorts = {
  generationStop,
  providerCallsUsedUp,
  reserveProviderCall,
  stopGenerationCalls,
};

/** Stops the generation for `reason` (a day without calls left) and ends this slot without a provider call. */
async function refuseSlot(
  sub: string,
  generationId: string,
  reason: LikenessStop,
  ports: LikenessCapBeforeCallPorts,
): Promise<never> {
  if (reason === 'limit') {
    await ports.stopGenerationCalls(sub, generationId, 'limit');
    // The error's message reaches the execution history and logs: the generation, never the account's sub.
    throw new ProviderCallCapError(
      `Generation ${generationId}: the account's provider calls for the day are used up`,
    );
  }
  throw new LikenessStoppedError(
    reason === 'refused'
      ? `Generation ${generationId} stopped: the provider kept refusing its calls`
      : `Generation ${generationId} stopped: its headshots kept failing the likeness check`,
  );
}

/**
 * Before a slot is enqueued in the provider queue (EnterLine): a stopped generation, or a day without calls left,
 * ends the slot here, so it never holds up other customers. It reads no settings: the allowance was set when the
 * generation started (use-cases/likeness-cap.ts `enforceLikenessCapAtStart`).
 *
 * @throws {LikenessStoppedError | ProviderCallCapError} the slot is refunded (a day used up also stops the generation)
 */
export async function assertSlotMayQueue(
  sub: string,
  generationId: string,
  ports: LikenessCapBeforeCallPorts = adapters,
): Promise<void> {
  const [stop, usedUp] = await Promise.all([
    ports.generationStop(sub, generationId),
    ports.providerCallsUsedUp(sub, generationId),
  ]);
  if (stop) return refuseSlot(sub, generationId, stop, ports);
  if (usedUp) return refuseSlot(sub, generationId, 'limit', ports);
}

/**
 * Right before a provider call (CallProvider, with the generation item it read): counts the call against the day's
 * allowance, atomically, or refuses it.
 *
 * @throws {LikenessStoppedError | ProviderCallCapError} no call is made; the slot is refunded
 */
export async function countProviderCall(
  generation: { id: string; userId: string; likenessStop?: LikenessStop },
  ports: LikenessCapBeforeCallPorts = adapters,
): Promise<void> {
  const { id, userId, likenessStop } = generation;
  if (likenessStop) return refuseSlot(userId, id, likenessStop, ports);
  if (!(await ports.reserveProviderCall(userId, id))) return refuseSlot(userId, id, 'limit', ports);
}
