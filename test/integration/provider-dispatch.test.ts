import { afterEach, describe, expect, it } from 'vitest';
import { reclaimExpired, releaseLease, returnPermit } from '../../functions/adapters/provider-queue/leases';
import { leaseId } from '../../functions/domain/provider-queue-order';
import { WAIT_BUDGET_MS, waitUntil } from '../../functions/domain/provider-queue-dispatch';
import { dispatchProviderQueue } from '../../functions/use-cases/dispatch-provider-queue';
import { enqueueSlot } from '../../functions/use-cases/enqueue-provider-call';
import { useOpenAiGenerationStack } from '../helpers/generation-stack';
import { configureHandlers } from '../helpers/handler-config';
import { clearLine, holdLease, inFlight, leaseItem, lineOf } from '../helpers/provider-queue';

/*
 * The dispatcher's wait for the bucket's next token within one invocation, and a permit given back when the provider
 * answered (before the headshot is finished), against DynamoDB Local and the local Step Functions and SQS. The
 * dispatcher's clock and sleep are the test's: no test waits for real time.
 */

const gen = useOpenAiGenerationStack();

afterEach(async () => {
  await gen.stack.settled();
});

/** Puts `slots` tickets of one generation (tokens Step Functions does not know: each lease comes straight back). */
async function queueSlots(generationId: string, slots: number): Promise<void> {
  const startedAt = new Date().toISOString();
  for (let slot = 0; slot < slots; slot++) {
    await enqueueSlot(
      {
        taskToken: `token-${generationId}-${slot}`,
        generationId,
        userId: 'dispatch-test',
        slot,
        round: slot,
        call: 0,
        startedAt,
      },
      'standard',
    );
  }
}

/** A clock the dispatcher's sleeps move: no real waiting. */
function fakeTime(start: number) {
  let now = start;
  const slept: number[] = [];
  return {
    clock: () => now,
    sleep: (ms: number) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    slept,
  };
}

describe('the dispatcher at 120 images/min (a bucket of 2, a token every 500 ms)', () => {
  it('admits the bucket at once, then waits for each next token within its invocation', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '120', PROVIDER_MAX_CONCURRENCY: '10' });
    const id = '01JDISPATCHWAITS0000000000';
    await queueSlots(id, 4);
    // Seconds after the gate's last admission: the bucket is full.
    const time = fakeTime(Date.now() + 5_000);
    const result = await dispatchProviderQueue({ ...time, waitUntil: time.clock() + WAIT_BUDGET_MS });

    expect(result).toMatchObject({ admitted: 4, waits: 2, waitedMs: 1_000 });
    // Two tokens in the bucket, then one every 500 ms: no whole-second SQS delay between them.
    expect(time.slept).toEqual([500, 500]);
    expect(result.wakeUpIn).toBeUndefined();
    expect(await lineOf(id)).toEqual([]);
  });

  it('stops waiting at its budget and hands over to a delayed wake-up', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '120', PROVIDER_MAX_CONCURRENCY: '10' });
    const id = '01JDISPATCHBUDGET000000000';
    await queueSlots(id, 4);
    const time = fakeTime(Date.now() + 10_000);
    // Room for one wait of 500 ms, not two.
    const result = await dispatchProviderQueue({ ...time, waitUntil: time.clock() + 700 });

    expect(result).toMatchObject({ admitted: 3, waits: 1, wakeUpIn: 1 });
    expect(await lineOf(id)).toHaveLength(1);
    await clearLine(id);
  });

  it('does not wait when it admitted nothing, nor without a budget', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '120', PROVIDER_MAX_CONCURRENCY: '10' });
    const id = '01JDISPATCHNOBUDGET0000000';
    await queueSlots(id, 3);
    const time = fakeTime(Date.now() + 15_000);
    // No budget (a test's single pass): the bucket's two, then the wake-up.
    expect(await dispatchProviderQueue(time)).toMatchObject({ admitted: 2, waits: 0, wakeUpIn: 1 });
    // At once again: an empty bucket and nothing admitted in this invocation — a wake-up, no wait.
    expect(await dispatchProviderQueue({ ...time, waitUntil: time.clock() + WAIT_BUDGET_MS })).toMatchObject({
      admitted: 0,
      waits: 0,
      wakeUpIn: 1,
    });
    expect(time.slept).toEqual([]);
    await clearLine(id);
  });

  it('keeps its waiting well inside the function timeout', () => {
    const now = 1_000_000;
    expect(waitUntil(now, 60_000)).toBe(now + WAIT_BUDGET_MS);
    expect(waitUntil(now, 45_000)).toBe(now + 15_000);
    expect(waitUntil(now, 20_000)).toBe(now);
  });
});

describe('a permit given back when the provider answered', () => {
  const lease = leaseId({ generationId: '01JPERMITRETURNED000000000', slot: 1, call: 0 });

  const heldLease = (grantedAt: number) => holdLease(lease, 'token-of-the-caller', grantedAt);

  it('counts once: the release after it deletes the lease and gives nothing back again', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '5' });
    await heldLease(Date.now());
    const held = await inFlight();

    expect(await returnPermit(lease)).toBe(true);
    expect(await inFlight()).toBe(held - 1);
    // The lease stays until the slot is released (it still covers a retried finishing).
    expect(await leaseItem(lease)).toMatchObject({ permitReturned: expect.any(Number) });
    // Twice changes nothing.
    expect(await returnPermit(lease)).toBe(false);
    expect(await inFlight()).toBe(held - 1);

    expect(await releaseLease(lease)).toBe(false);
    expect(await leaseItem(lease)).toBeUndefined();
    expect(await inFlight()).toBe(held - 1);
  });

  it('lets the reaper remove an expired lease whose permit came back, without counting it again', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '5' });
    const now = Date.now();
    await heldLease(now);
    expect(await returnPermit(lease, now + 1_000)).toBe(true);
    const after = await inFlight();

    expect(await reclaimExpired(now + 601_000)).toBe(0);
    expect(await leaseItem(lease)).toBeUndefined();
    expect(await inFlight()).toBe(after);
  });
});
