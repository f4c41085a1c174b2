import { inject } from 'vitest';
import { releaseLease } from '../../functions/adapters/provider-queue/leases';

/**
 * Holds the line for the image provider until `done()` returns true, at most `maxMs` (ms): every second it records
 * the pause a real 429 (Retry-After: 5 s) records at the admission point, so nobody is admitted while it holds and
 * the line moves again at most 5 s after it stops. A browser test uses it so that what it must see while a
 * generation waits (a place in line, progress after a reload) is there however fast or slow this machine is,
 * instead of racing the generation. The e2e project runs its files one at a time, so no other file is held.
 */
export async function holdProviderUntil(done: () => boolean, maxMs: number): Promise<void> {
  // The lease and queue items live in the e2e stack's DynamoDB Local table.
  Object.assign(process.env, inject('e2eStack').env);
  const until = Date.now() + maxMs;
  while (!done() && Date.now() < until) {
    await releaseLease('e2e-provider-throttled', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
