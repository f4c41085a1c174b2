import { describe, expect, it } from 'vitest';
import { lineFullMessage } from '../../../functions/domain/provider-queue-lanes';
import { orderKey } from '../../../functions/domain/provider-queue-order';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { assertLineHasRoom } from '../../../functions/use-cases/provider-line-room';
import { failing } from './fakes/failures';
import { FakeProviderQueue } from './fakes/provider-queue';

const SUB = 'customer';

/**
 * A line at 120 images/min and 3 permits (the fake's), no call measured yet (60 s assumed per call), a 30-minute
 * deadline, with `free` free and `paid` paid generations waiting, started a minute ago.
 */
function line(free: number, paid = 0) {
  const queue = new FakeProviderQueue();
  const started = queue.now - 60_000;
  for (let g = 0; g < free; g++)
    queue.places.set(`01JFREE${g}`, orderKey(started + g, 'free', queue.headStart));
  for (let g = 0; g < paid; g++)
    queue.places.set(`01JPAID${g}`, orderKey(started + g, 'standard', queue.headStart));
  return queue;
}

describe('assertLineHasRoom', () => {
  it('lets a start through when the line can serve it before the deadline', async () => {
    const queue = line(10);
    queue.priorities.set(SUB, 'free');
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).resolves.toBeUndefined();
  });

  it('refuses a free start behind a crowd it would wait past the deadline for, with the time to try again', async () => {
    // 20 × 6 slots ahead + its own 6, 3 at a time, 60 s each: 42 minutes.
    const queue = line(20);
    queue.priorities.set(SUB, 'free');
    const refusal = await assertLineHasRoom(SUB, 6, queue.now, queue).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(QuotaExceededError);
    const { quota, retryAfterSeconds, message } = refusal as QuotaExceededError;
    expect(quota).toBe('provider-line');
    expect(retryAfterSeconds).toBe(42 * 60 - 30 * 60);
    expect(message).toBe(lineFullMessage(retryAfterSeconds));
  });

  it('lets a paying customer through behind the same crowd: free work takes only its share ahead of them', async () => {
    const queue = line(20);
    queue.priorities.set(SUB, 'standard');
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).resolves.toBeUndefined();
    queue.priorities.set(SUB, 'priority');
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).resolves.toBeUndefined();
  });

  it('refuses a paid start too when the paid lane alone is longer than the deadline', async () => {
    const queue = line(0, 20);
    queue.priorities.set(SUB, 'standard');
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).rejects.toMatchObject({
      quota: 'provider-line',
    });
  });

  it('counts the paid generations a free start waits for, up to the free share', async () => {
    // 12 paid generations ahead of a free one: at a quarter, its 6 slots go after 18 paid ones — 24 of 72 + 6 slots.
    const queue = line(0, 12);
    queue.priorities.set(SUB, 'free');
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).resolves.toBeUndefined();
    // With no share, it waits for all of them and one more free crowd: past the deadline.
    queue.share = 0;
    for (let g = 0; g < 10; g++) queue.places.set(`01JMORE${g}`, orderKey(queue.now - 30_000, 'free', 0) + g);
    await expect(assertLineHasRoom(SUB, 6, queue.now, queue)).rejects.toMatchObject({
      quota: 'provider-line',
    });
  });

  it("fails when the customer's standing cannot be read", async () => {
    const queue = line(0);
    await expect(
      assertLineHasRoom(SUB, 6, queue.now, { ...queue, currentPriority: failing() }),
    ).rejects.toThrow();
  });
});
