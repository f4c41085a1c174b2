import { describe, expect, it } from 'vitest';
import {
  reapProviderLeases,
  type ReapProviderLeasesPorts,
} from '../../../functions/use-cases/reap-provider-leases';
import { oldestLiveKey } from '../../../functions/domain/provider-queue-positions';
import { failing } from './fakes/failures';
import { FakeProviderQueue } from './fakes/provider-queue';

function setup() {
  const queue = new FakeProviderQueue();
  const ports: ReapProviderLeasesPorts = queue;
  const now = queue.now;
  queue.leases.set('L#crashed', { taskToken: 'a', grantedAt: now - 700_000, leaseUntil: now - 1 });
  queue.leases.set('L#finishing', { taskToken: 'b', grantedAt: now - 100_000, leaseUntil: now + 500_000 });
  queue.leases.set('L#answered', {
    taskToken: 'c',
    grantedAt: now - 700_000,
    leaseUntil: now - 1,
    permitReturned: now - 650_000,
  });
  queue.stored = { ...queue.state(), inFlight: 2 };
  const oldest = oldestLiveKey(now, queue.deadline, queue.headStart);
  queue.places.set('01JSTALE', oldest - 1);
  queue.places.set('01JWAITING', oldest + 1);
  return { queue, ports, now };
}

describe("reapProviderLeases: the provider queue's safety net", () => {
  it("gives back a crashed holder's permit, drops stale positions, and wakes the dispatcher for the permit", async () => {
    const { queue, ports, now } = setup();
    expect(queue.queued()).toEqual([]);
    expect(await reapProviderLeases(now, ports)).toEqual({ reclaimed: 1, dropped: 1, woke: true });
    expect([...queue.leases.keys()]).toEqual(['L#finishing']);
    // The answered call's permit came back already: only its item went.
    expect(queue.state().inFlight).toBe(1);
    expect([...queue.places.keys()]).toEqual(['01JWAITING']);
    expect(queue.wakeUps).toEqual([{ reason: 'tick', delaySeconds: 0 }]);
  });

  it('changes nothing run again, and wakes nobody when it freed no lease and the line is empty', async () => {
    const { queue, ports, now } = setup();
    await reapProviderLeases(now, ports);
    expect(await reapProviderLeases(now, ports)).toEqual({ reclaimed: 0, dropped: 0, woke: false });
    expect(queue.state().inFlight).toBe(1);
    expect(queue.wakeUps).toHaveLength(1);
  });

  it('wakes the dispatcher when slots wait in the line though it freed no lease (a lost wake-up message)', async () => {
    const { queue, ports, now } = setup();
    await reapProviderLeases(now, ports);
    queue.seed({ taskToken: 'waiting', generationId: '01JWAITING', userId: 'u1', slot: 0, call: 0 });
    expect(await reapProviderLeases(now, ports)).toEqual({ reclaimed: 0, dropped: 0, woke: true });
    expect(queue.wakeUps).toEqual([
      { reason: 'tick', delaySeconds: 0 },
      { reason: 'tick', delaySeconds: 0 },
    ]);
    // The reaper only looks at the line: the ticket is still there for the dispatcher.
    expect(queue.queued().map((t) => t.taskToken)).toEqual(['waiting']);
  });

  it('wakes the dispatcher for a freed lease without reading the line', async () => {
    const { queue, ports, now } = setup();
    const result = await reapProviderLeases(now, { ...ports, readHead: failing() });
    expect(result.woke).toBe(true);
    expect(queue.wakeUps).toHaveLength(1);
  });

  it('fails when the line cannot be read, waking nobody (the next minute tries again)', async () => {
    const { queue, ports, now } = setup();
    await reapProviderLeases(now, ports);
    await expect(reapProviderLeases(now, { ...ports, readHead: failing() })).rejects.toThrow('port down');
    expect(queue.wakeUps).toHaveLength(1);
  });

  it('fails when the leases cannot be read, waking nobody (the next minute tries again)', async () => {
    const { queue, ports, now } = setup();
    await expect(reapProviderLeases(now, { ...ports, reclaimExpired: failing() })).rejects.toThrow(
      'port down',
    );
    expect(queue.wakeUps).toEqual([]);
    expect(queue.places.size).toBe(2);
  });

  it('fails when the positions cannot be dropped, the leases given back already', async () => {
    const { queue, ports, now } = setup();
    await expect(reapProviderLeases(now, { ...ports, dropStalePositions: failing() })).rejects.toThrow(
      'port down',
    );
    expect(queue.state().inFlight).toBe(1);
    expect(queue.wakeUps).toEqual([]);
  });
});
