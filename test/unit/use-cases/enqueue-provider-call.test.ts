import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  enqueueProviderCall,
  enqueueSlot,
  type EnqueueProviderCallPorts,
} from '../../../functions/use-cases/enqueue-provider-call';
import { assertSlotMayQueue } from '../../../functions/use-cases/likeness-cap-before-call';
import { LikenessStoppedError, ProviderCallCapError } from '../../../functions/domain/likeness-cap';
import { teamAccount } from '../../../functions/domain/ledger-account';
import {
  AdmissionDeadlineError,
  isFreeKey,
  keyTime,
  type QueueEntry,
} from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { FakeLikenessCap } from './fakes/likeness-cap';
import { FakeProviderQueue } from './fakes/provider-queue';

const sub = 'customer-1';

function setup() {
  const queue = new FakeProviderQueue();
  const cap = new FakeLikenessCap();
  const ports: EnqueueProviderCallPorts = {
    ...queue,
    assertSlotMayQueue: (user, generationId) => assertSlotMayQueue(user, generationId, cap.ports),
  };
  const startedAt = queue.now - 10_000;
  const generationId = ulid(startedAt);
  const entry = (fields: Partial<QueueEntry> = {}): QueueEntry => ({
    taskToken: 'token-1',
    generationId,
    userId: sub,
    slot: 0,
    round: 0,
    call: 0,
    startedAt: new Date(startedAt).toISOString(),
    ...fields,
  });
  return { queue, cap, ports, entry, generationId, startedAt };
}

describe('enqueueProviderCall: EnterLine', () => {
  it("puts the slot's ticket in its generation's order, registers the generation's position, and wakes the dispatcher", async () => {
    const { queue, ports, entry, generationId, startedAt } = setup();
    queue.places.set('01JAHEAD', startedAt - 1);
    const { orderKey } = await enqueueProviderCall(entry(), queue.now, ports);

    expect(orderKey).toBe(startedAt);
    expect(queue.queued()).toEqual([
      {
        orderKey,
        taskToken: 'token-1',
        generationId,
        userId: sub,
        slot: 0,
        call: 0,
        deadline: startedAt + queue.deadline,
        // When this EnterLine put it: of two tickets of one call, the dispatcher admits the newer (issue 33).
        enqueuedAt: queue.now,
      },
    ]);
    // One generation ahead: 6 slots before its first call, at 120/min with 3 permits.
    expect(queue.queues.get(generationId)).toMatchObject({ position: 2, orderKey });
    expect(queue.queues.get(generationId)!.etaSeconds).toBeGreaterThan(0);
    expect(queue.wakeUps).toEqual([{ reason: 'enter', delaySeconds: 0 }]);
  });

  it("gives a priority customer's generation its head start, read at the moment it enters", async () => {
    const { queue, ports, entry, startedAt } = setup();
    queue.priorities.set(sub, 'priority');
    expect((await enqueueProviderCall(entry(), queue.now, ports)).orderKey).toBe(startedAt - queue.headStart);
  });

  it('registers the position once: later slots and later calls only put their tickets', async () => {
    const { queue, ports, entry, generationId } = setup();
    await enqueueProviderCall(entry({ round: 3, slot: 3 }), queue.now, ports);
    await enqueueProviderCall(entry({ call: 1, taskToken: 'token-2' }), queue.now, ports);
    expect(queue.places.has(generationId)).toBe(false);
    expect(queue.tickets.size).toBe(2);
  });

  it('keeps one ticket for a retried EnterLine of the same call: the retry’s token', async () => {
    const { queue, ports, entry, generationId } = setup();
    await enqueueProviderCall(entry({ taskToken: 'first-try' }), queue.now, ports);
    await enqueueProviderCall(entry({ taskToken: 'retry' }), queue.now, ports);
    expect(queue.queued().map((t) => t.taskToken)).toEqual(['retry']);
    expect(queue.places.get(generationId)).toBeDefined();
  });

  it('refuses a slot whose generation passed its deadline: no ticket, no wake-up', async () => {
    const { queue, ports, entry } = setup();
    const late = entry({ startedAt: new Date(queue.now - queue.deadline).toISOString() });
    await expect(enqueueProviderCall(late, queue.now, ports)).rejects.toThrow(AdmissionDeadlineError);
    expect(queue.tickets.size).toBe(0);
    expect(queue.places.size).toBe(0);
    expect(queue.wakeUps).toEqual([]);
  });

  it('refuses a slot of a generation the likeness cap stopped: no ticket', async () => {
    const { queue, cap, ports, entry, generationId } = setup();
    cap.stops.set(generationId, 'mismatch');
    await expect(enqueueProviderCall(entry(), queue.now, ports)).rejects.toThrow(LikenessStoppedError);
    expect(queue.tickets.size).toBe(0);
    expect(queue.wakeUps).toEqual([]);
  });

  it("refuses a slot when the day's calls are used up, stopping the generation", async () => {
    const { queue, cap, ports, entry, generationId } = setup();
    Object.assign(cap.dayOf(sub, generationId), { allowance: 12, calls: 12 });
    await expect(enqueueProviderCall(entry(), queue.now, ports)).rejects.toThrow(ProviderCallCapError);
    expect(cap.stops.get(generationId)).toBe('limit');
    expect(queue.tickets.size).toBe(0);
  });

  it("puts a free account's slot in the free lane, behind a paid generation that started later", async () => {
    const { queue, ports, entry, generationId, startedAt } = setup();
    queue.priorities.set(sub, 'free');
    queue.places.set('01JPAIDLATER', startedAt + 5_000);
    const { orderKey } = await enqueueProviderCall(entry(), queue.now, ports);

    expect(isFreeKey(orderKey)).toBe(true);
    expect(keyTime(orderKey)).toBe(startedAt);
    // The paid generation is ahead of it in the line: its place counts it.
    expect(queue.queues.get(generationId)).toMatchObject({ position: 2, orderKey });
    expect(await queue.readHead(10, 'free')).toHaveLength(1);
    expect(await queue.readHead(10, 'paid')).toEqual([]);
  });

  it('puts a team-paid slot at the paying team’s standing, not its member’s (docs/teams.md "Money")', async () => {
    const { queue, ports, entry, generationId } = setup();
    queue.priorities.set(sub, 'free');
    queue.priorities.set('team:T1', 'standard');
    queue.payers.set(generationId, teamAccount('T1'));
    const { orderKey } = await enqueueProviderCall(entry(), queue.now, ports);
    expect(isFreeKey(orderKey)).toBe(false);
    expect(await queue.readHead(10, 'paid')).toHaveLength(1);
  });

  it('fails when the standing cannot be read, putting no ticket', async () => {
    const { queue, ports, entry } = setup();
    await expect(
      enqueueProviderCall(entry(), queue.now, { ...ports, currentPriority: failing() }),
    ).rejects.toThrow('port down');
    expect(queue.tickets.size).toBe(0);
  });

  it('fails when the dispatcher cannot be woken, the ticket staying for the retry to overwrite', async () => {
    const { queue, ports, entry } = setup();
    await expect(
      enqueueProviderCall(entry(), queue.now, { ...ports, wakeDispatcher: failing() }),
    ).rejects.toThrow('port down');
    expect(queue.tickets.size).toBe(1);
    await enqueueProviderCall(entry({ taskToken: 'retry' }), queue.now, ports);
    expect(queue.queued().map((t) => t.taskToken)).toEqual(['retry']);
  });
});

describe('enqueueSlot: the ticket alone', () => {
  it('puts a ticket without waking anyone, and counts an already registered generation once', async () => {
    const { queue, ports, entry, generationId } = setup();
    await enqueueSlot(entry(), 'standard', queue.now, ports);
    queue.queues.delete(generationId);
    await enqueueSlot(entry({ taskToken: 'again' }), 'standard', queue.now, ports);
    expect(queue.queues.has(generationId)).toBe(false);
    expect(queue.wakeUps).toEqual([]);
  });

  it('fails when the position cannot be registered, putting no ticket', async () => {
    const { queue, ports, entry } = setup();
    await expect(
      enqueueSlot(entry(), 'standard', queue.now, { ...ports, registerPosition: failing() }),
    ).rejects.toThrow('port down');
    expect(queue.tickets.size).toBe(0);
  });
});
