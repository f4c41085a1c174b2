import { describe, expect, it } from 'vitest';
import { dispatchProviderQueue } from '../../../functions/use-cases/dispatch-provider-queue';
import { isFreeKey, orderKey, type QueuePriority } from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { FakeProviderQueue } from './fakes/provider-queue';

/**
 * A queue at 60 images/min (one token a second, a bucket of one) with permits to spare, and generations of 6 slots
 * waiting: `generations` lists each one's class and how many seconds before now it started.
 */
function setup(generations: readonly [QueuePriority, number][]) {
  const queue = new FakeProviderQueue();
  queue.limits = { ...queue.limits, imagesPerMinute: 60, maxConcurrency: 100 };
  for (const [g, [priority, ago]] of generations.entries()) {
    const key = orderKey(queue.now - ago * 1000, priority, queue.headStart);
    for (let slot = 0; slot < 6; slot++)
      queue.seed({
        orderKey: key,
        taskToken: `${priority}-${g}-${slot}`,
        generationId: `01JGEN${g}`,
        userId: `customer-${g}`,
        slot,
        call: 0,
      });
    queue.places.set(`01JGEN${g}`, key);
  }
  /** The lanes of the Tasks resumed, in order. */
  const lanes = () => queue.resumed.map((r) => (r.taskToken.startsWith('free') ? 'free' : 'paid'));
  return {
    queue,
    lanes,
    dispatch: (budgetMs: number) =>
      dispatchProviderQueue(
        { clock: queue.clock, sleep: queue.sleep, waitUntil: queue.now + budgetMs },
        queue,
      ),
  };
}

describe('dispatchProviderQueue: paid work first, free work bounded', () => {
  it('gives a free crowd that came first one admission in four while paid work waits, then the rest', async () => {
    // Two free generations a minute old, then two Starter buyers 10 s ago.
    const { queue, lanes, dispatch } = setup([
      ['free', 60],
      ['free', 59],
      ['standard', 10],
      ['standard', 9],
    ]);
    await dispatch(30_000);

    const order = lanes();
    expect(order).toHaveLength(24);
    // The 12 paid slots are through after 15 admissions: every fourth went to the free crowd (3), never two in a row.
    expect(order.lastIndexOf('paid')).toBe(14);
    expect(order.slice(0, 15).join(',')).toBe(
      'paid,paid,paid,free,paid,paid,paid,free,paid,paid,paid,free,paid,paid,paid',
    );
    // The allowance the state holds stays within one admission.
    expect(queue.state().freeAllowance).toBeGreaterThanOrEqual(0);
    expect(queue.state().freeAllowance).toBeLessThanOrEqual(1);
  });

  it('admits no free work while paid work waits at a share of 0', async () => {
    const { queue, lanes, dispatch } = setup([
      ['free', 60],
      ['priority', 5],
    ]);
    queue.share = 0;
    await dispatch(30_000);
    expect(lanes()).toEqual([...Array<string>(6).fill('paid'), ...Array<string>(6).fill('free')]);
  });

  it('lets free work use every permit when no paid work waits', async () => {
    const { queue, lanes } = setup([['free', 60]]);
    queue.limits = { ...queue.limits, imagesPerMinute: 600 };
    // A bucket of 10: one round admits the whole generation.
    await dispatchProviderQueue({ clock: queue.clock, sleep: queue.sleep }, queue);
    expect(lanes()).toEqual(Array<string>(6).fill('free'));
    expect([...queue.tickets.values()].some((t) => isFreeKey(t.orderKey))).toBe(false);
  });

  it('gives a batch its share: two free slots in a round of eight while paid work waits', async () => {
    const { queue, lanes } = setup([
      ['free', 60],
      ['standard', 10],
      ['standard', 9],
    ]);
    queue.limits = { ...queue.limits, imagesPerMinute: 480 };
    await dispatchProviderQueue({ clock: queue.clock, sleep: queue.sleep }, queue);
    expect(lanes().filter((l) => l === 'free')).toHaveLength(2);
    expect(lanes().filter((l) => l === 'paid')).toHaveLength(6);
  });

  it("fails when a lane's head cannot be read, admitting nothing", async () => {
    const { queue } = setup([['free', 60]]);
    await expect(
      dispatchProviderQueue({ clock: queue.clock }, { ...queue, readHead: failing() }),
    ).rejects.toThrow('port down');
    expect(queue.resumed).toEqual([]);
  });
});
