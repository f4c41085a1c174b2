import { describe, expect, it } from 'vitest';
import {
  dispatchProviderQueue,
  type DispatchProviderQueuePorts,
} from '../../../functions/use-cases/dispatch-provider-queue';
import { WAIT_BUDGET_MS } from '../../../functions/domain/provider-queue-dispatch';
import { leaseId } from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { FakeProviderQueue, MULTIPLE_OPERATIONS_ON_ONE_ITEM } from './fakes/provider-queue';

/** A queue at 120 images/min (a bucket of 2, a token every 500 ms) and 3 permits, with `slots` tickets waiting. */
function setup(slots: number, generations = 1) {
  const queue = new FakeProviderQueue();
  for (let g = 0; g < generations; g++)
    for (let slot = 0; slot < slots; slot++)
      queue.seed({
        orderKey: queue.now - 60_000 + g,
        taskToken: `token-${g}-${slot}`,
        generationId: `01JGEN${g}`,
        userId: `customer-${g}`,
        slot,
        call: 0,
      });
  // The generations wait with their position registered.
  for (let g = 0; g < generations; g++) queue.places.set(`01JGEN${g}`, queue.now - 60_000 + g);
  const ports: DispatchProviderQueuePorts = queue;
  const time = { clock: queue.clock, sleep: queue.sleep };
  return { queue, ports, time };
}

describe('dispatchProviderQueue: admitting the head of the queue', () => {
  it("admits as many as the bucket's tokens, resumes each Task with its lease, and wakes itself for the next token", async () => {
    const { queue, ports, time } = setup(4);
    const result = await dispatchProviderQueue(time, ports);

    expect(result).toMatchObject({ admitted: 2, expired: 0, waits: 0, wakeUpIn: 1 });
    expect(queue.resumed).toEqual([
      { taskToken: 'token-0-0', leaseId: leaseId({ generationId: '01JGEN0', slot: 0, call: 0 }) },
      { taskToken: 'token-0-1', leaseId: leaseId({ generationId: '01JGEN0', slot: 1, call: 0 }) },
    ]);
    expect(queue.state()).toMatchObject({ inFlight: 2, version: 1 });
    expect(queue.queued().map((t) => t.slot)).toEqual([2, 3]);
    expect(queue.wakeUps).toEqual([{ reason: 'tokens', delaySeconds: 1 }]);
    // The generation runs: its position is 0 and it no longer counts in the queue.
    expect(queue.admitted.has('01JGEN0')).toBe(true);
    expect(queue.places.has('01JGEN0')).toBe(false);
    expect(queue.dispatchMs).toHaveLength(1);
  });

  it('waits within its budget for each next token until the permits are taken, then leaves the rest to a release', async () => {
    const { queue, ports, time } = setup(5);
    const result = await dispatchProviderQueue({ ...time, waitUntil: queue.now + WAIT_BUDGET_MS }, ports);

    expect(result).toMatchObject({ admitted: 3, waits: 1, waitedMs: 500 });
    expect(result.wakeUpIn).toBeUndefined();
    expect(queue.wakeUps).toEqual([]);
    expect(queue.tickets.size).toBe(2);
  });

  it('stops waiting at its budget and hands over to a delayed wake-up message', async () => {
    const { queue, ports, time } = setup(4);
    queue.limits = { ...queue.limits, maxConcurrency: 10 };
    const result = await dispatchProviderQueue({ ...time, waitUntil: queue.now + 700 }, ports);

    expect(result).toMatchObject({ admitted: 3, waits: 1, wakeUpIn: 1 });
    expect(queue.tickets.size).toBe(1);
  });

  it('takes generations in order: all of the first before any of the next', async () => {
    const { queue, ports, time } = setup(2, 2);
    queue.limits = { ...queue.limits, imagesPerMinute: Number.POSITIVE_INFINITY, maxConcurrency: 3 };
    await dispatchProviderQueue(time, ports);
    expect(queue.resumed.map((r) => r.taskToken)).toEqual(['token-0-0', 'token-0-1', 'token-1-0']);
    expect(queue.admitted).toEqual(new Set(['01JGEN0', '01JGEN1']));
  });

  it('admits at most 40 a transaction, and reads the state again for the rest', async () => {
    const { queue, ports, time } = setup(45);
    queue.limits = { ...queue.limits, imagesPerMinute: Number.POSITIVE_INFINITY, maxConcurrency: 100 };
    const result = await dispatchProviderQueue(time, ports);
    expect(result.admitted).toBe(45);
    expect(queue.state()).toMatchObject({ inFlight: 45, version: 2 });
  });

  it('does nothing on an empty queue, and sends no wake-up message', async () => {
    const { queue, ports, time } = setup(0);
    expect(await dispatchProviderQueue(time, ports)).toMatchObject({ admitted: 0, expired: 0, waits: 0 });
    expect(queue.wakeUps).toEqual([]);
    expect(queue.dispatchMs).toHaveLength(1);
  });

  it('admits nobody during a 429 pause, and wakes itself when it ends', async () => {
    const { queue, ports, time } = setup(2);
    queue.stored = {
      ...queue.state(),
      tokens: 1,
      refilledAt: queue.now + 30_000,
      pausedUntil: queue.now + 30_000,
    };
    const result = await dispatchProviderQueue({ ...time, waitUntil: queue.now + WAIT_BUDGET_MS }, ports);
    expect(result).toMatchObject({ admitted: 0, waits: 0, wakeUpIn: 30 });
    expect(queue.tickets.size).toBe(2);
  });
});

describe('dispatchProviderQueue: tickets past their deadline', () => {
  it('fails their Tasks with AdmissionDeadline without a permit, and admits the live ones', async () => {
    const { queue, ports, time } = setup(0);
    queue.seed({
      taskToken: 'late',
      generationId: '01JLATE',
      userId: 'u',
      slot: 0,
      call: 0,
      orderKey: 1,
      deadline: queue.now,
    });
    queue.places.set('01JLATE', 1);
    queue.seed({ taskToken: 'live', generationId: '01JLIVE', userId: 'u', slot: 0, call: 0, orderKey: 2 });
    const result = await dispatchProviderQueue(time, ports);

    expect(result).toMatchObject({ admitted: 1, expired: 1 });
    expect(queue.failedTasks).toEqual([{ taskToken: 'late', generationId: '01JLATE' }]);
    expect(queue.places.has('01JLATE')).toBe(false);
    expect(queue.resumed.map((r) => r.taskToken)).toEqual(['live']);
    expect(queue.state().inFlight).toBe(1);
  });

  it('leaves a late ticket a retried EnterLine replaced meanwhile to be judged on its own', async () => {
    const { queue, ports, time } = setup(0);
    const late = queue.seed({
      taskToken: 'first-try',
      generationId: '01JLATE',
      userId: 'u',
      slot: 0,
      call: 0,
      deadline: queue.now,
    });
    // The dispatcher read the first try's ticket; the retry's token replaced it before the delete.
    const stale: DispatchProviderQueuePorts = { ...ports, readHead: async () => [late] };
    queue.seed({ ...late, taskToken: 'retry' });
    await dispatchProviderQueue(time, stale);
    expect(queue.failedTasks).toEqual([]);
    expect(queue.queued().map((t) => t.taskToken)).toEqual(['retry']);
  });
});

describe('dispatchProviderQueue: races and Tasks that no longer wait', () => {
  it('gives the lease of a Task that no longer waits back at once', async () => {
    const { queue, ports, time } = setup(1);
    queue.waiting.delete('token-0-0');
    const result = await dispatchProviderQueue(time, ports);
    expect(result.admitted).toBe(1);
    expect(queue.leases.size).toBe(0);
    expect(queue.state().inFlight).toBe(0);
  });

  it('reads the state again after losing its version race, and then does not wait for tokens', async () => {
    const { queue, ports, time } = setup(4);
    let raced = false;
    const racing: DispatchProviderQueuePorts = {
      ...ports,
      admitTickets: async (admission) => {
        if (!raced) {
          // Another dispatch admitted meanwhile: the state's version moved.
          raced = true;
          queue.stored = { ...queue.state(), version: queue.state().version + 1 };
        }
        return queue.admitTickets(admission);
      },
    };
    const result = await dispatchProviderQueue({ ...time, waitUntil: queue.now + WAIT_BUDGET_MS }, racing);
    expect(result).toMatchObject({ admitted: 2, waits: 0 });
    expect(queue.state().version).toBe(2);
  });

  it('hands the lease of an admitted call to its retried EnterLine instead of taking a second permit', async () => {
    const { queue, ports, time } = setup(1);
    const id = leaseId({ generationId: '01JGEN0', slot: 0, call: 0 });
    queue.leases.set(id, { taskToken: 'first-try', grantedAt: queue.now, leaseUntil: queue.now + 600_000 });
    queue.stored = { ...queue.state(), inFlight: 1 };
    const result = await dispatchProviderQueue(time, ports);

    expect(result.admitted).toBe(0);
    expect(queue.leases.get(id)?.taskToken).toBe('token-0-0');
    expect(queue.resumed).toEqual([{ taskToken: 'token-0-0', leaseId: id }]);
    expect(queue.state().inFlight).toBe(1);
    expect(queue.tickets.size).toBe(0);
  });

  it('gives a handed-over lease back when the retried Task no longer waits either', async () => {
    const { queue, ports, time } = setup(1);
    const id = leaseId({ generationId: '01JGEN0', slot: 0, call: 0 });
    queue.leases.set(id, { taskToken: 'first-try', grantedAt: queue.now, leaseUntil: queue.now + 600_000 });
    queue.stored = { ...queue.state(), inFlight: 1 };
    queue.waiting.delete('token-0-0');
    await dispatchProviderQueue(time, ports);
    expect(queue.leases.size).toBe(0);
    expect(queue.state().inFlight).toBe(0);
  });
});

describe('dispatchProviderQueue: nobody can wedge the line', () => {
  /** Two tickets of slot 0's first call: EnterLine retried after the customer's standing changed (a new order key). */
  function twoTicketsOfOneCall(queue: FakeProviderQueue) {
    const call = { generationId: '01JGEN0', userId: 'customer-0', slot: 0, call: 0 };
    const first = queue.seed({
      ...call,
      taskToken: 'first-try',
      orderKey: queue.now - 60_000,
      enqueuedAt: queue.now - 2_000,
    });
    const retry = queue.seed({
      ...call,
      taskToken: 'retry',
      orderKey: queue.now - 360_000,
      enqueuedAt: queue.now - 1_000,
    });
    // The first try's Task failed: Step Functions no longer knows its token.
    queue.waiting.delete('first-try');
    return { first, retry, lease: leaseId(call) };
  }

  it('refuses two puts of one lease in one transaction, as DynamoDB does (the fake is as strict)', async () => {
    const queue = new FakeProviderQueue();
    const { first, retry } = twoTicketsOfOneCall(queue);
    const state = queue.state();
    const result = await queue.admitTickets({
      state,
      next: { ...state, inFlight: 2, version: 1 },
      tickets: [retry, first],
      grantedAt: queue.now,
      leaseUntil: queue.now + 600_000,
    });
    expect(result).toEqual({
      written: false,
      held: [],
      refused: { tickets: [retry, first], ...MULTIPLE_OPERATIONS_ON_ONE_ITEM },
    });
    expect(MULTIPLE_OPERATIONS_ON_ONE_ITEM).toEqual({
      error: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });
  });

  it('admits two tickets of one call once: the later ticket gets the lease, the older is deleted', async () => {
    const queue = new FakeProviderQueue();
    queue.limits = { ...queue.limits, imagesPerMinute: Number.POSITIVE_INFINITY };
    const { lease } = twoTicketsOfOneCall(queue);
    queue.seed({ taskToken: 'next', generationId: '01JGEN1', userId: 'customer-1', slot: 0, call: 0 });
    const result = await dispatchProviderQueue({ clock: queue.clock, sleep: queue.sleep }, queue);

    expect(result).toMatchObject({ admitted: 2, setAside: 0 });
    expect(queue.resumed).toEqual([
      { taskToken: 'retry', leaseId: lease },
      { taskToken: 'next', leaseId: leaseId({ generationId: '01JGEN1', slot: 0, call: 0 }) },
    ]);
    expect(queue.tickets.size).toBe(0);
    expect(queue.state().inFlight).toBe(2);
  });

  it('deletes the older ticket of a call met in a later batch, leaving the lease with the Task that holds it', async () => {
    const queue = new FakeProviderQueue();
    const { lease } = twoTicketsOfOneCall(queue);
    // The retry's ticket (ahead in line) was admitted alone; the first try's comes up later.
    queue.limits = { ...queue.limits, maxConcurrency: 1 };
    expect(await dispatchProviderQueue({ clock: queue.clock, sleep: queue.sleep }, queue)).toMatchObject({
      admitted: 1,
    });
    queue.limits = { ...queue.limits, maxConcurrency: 3 };
    queue.now += 60_000;
    const later = await dispatchProviderQueue({ clock: queue.clock, sleep: queue.sleep }, queue);

    expect(later).toMatchObject({ admitted: 0, setAside: 0 });
    expect(queue.leases.get(lease)?.taskToken).toBe('retry');
    expect(queue.resumed.map((r) => r.taskToken)).toEqual(['retry']);
    expect(queue.tickets.size).toBe(0);
    expect(queue.state().inFlight).toBe(1);
  });

  it('sets aside a ticket whose lease put the table refuses, refunds its slot, and admits the others', async () => {
    const { queue, ports, time } = setup(3);
    queue.limits = { ...queue.limits, imagesPerMinute: Number.POSITIVE_INFINITY };
    const refused = leaseId({ generationId: '01JGEN0', slot: 1, call: 0 });
    queue.refusedLeases.add(refused);
    const result = await dispatchProviderQueue(time, ports);

    expect(result).toMatchObject({ admitted: 2, setAside: 1 });
    expect(queue.resumed.map((r) => r.taskToken)).toEqual(['token-0-0', 'token-0-2']);
    expect(queue.aside).toEqual([
      expect.objectContaining({
        ticket: expect.objectContaining({ taskToken: 'token-0-1' }),
        error: 'ValidationError',
      }),
    ]);
    expect(queue.failedTasks).toEqual([
      { taskToken: 'token-0-1', generationId: '01JGEN0', error: 'AdmissionRefused' },
    ]);
    expect(queue.tickets.size).toBe(0);
    expect(queue.leases.has(refused)).toBe(false);
    expect(queue.state().inFlight).toBe(2);
  });

  it('sets aside a refused ticket at the head alone, and the next dispatch admits the line behind it', async () => {
    const { queue, ports, time } = setup(2);
    queue.limits = { ...queue.limits, maxConcurrency: 1 };
    queue.refusedLeases.add(leaseId({ generationId: '01JGEN0', slot: 0, call: 0 }));
    expect(await dispatchProviderQueue(time, ports)).toMatchObject({ admitted: 1, setAside: 1 });
    expect(queue.resumed.map((r) => r.taskToken)).toEqual(['token-0-1']);
    expect(queue.failedTasks.map((t) => t.taskToken)).toEqual(['token-0-0']);
  });

  it('admits a batch the table refuses as a whole one ticket at a time', async () => {
    const { queue, ports, time } = setup(3);
    queue.limits = { ...queue.limits, imagesPerMinute: Number.POSITIVE_INFINITY };
    const batches: number[] = [];
    const refusing: DispatchProviderQueuePorts = {
      ...ports,
      admitTickets: async (admission) => {
        batches.push(admission.tickets.length);
        if (admission.tickets.length > 1) {
          return {
            written: false,
            held: [],
            refused: { tickets: admission.tickets, ...MULTIPLE_OPERATIONS_ON_ONE_ITEM },
          };
        }
        return queue.admitTickets(admission);
      },
    };
    const result = await dispatchProviderQueue(time, refusing);
    expect(result).toMatchObject({ admitted: 3, setAside: 0 });
    expect(batches).toEqual([3, 1, 1, 1]);
    expect(queue.state().inFlight).toBe(3);
  });

  it('fails when a refused ticket cannot be set aside, admitting nothing of it (SQS delivers the wake-up again)', async () => {
    const { queue, ports, time } = setup(1);
    queue.refusedLeases.add(leaseId({ generationId: '01JGEN0', slot: 0, call: 0 }));
    await expect(dispatchProviderQueue(time, { ...ports, setTicketAside: failing() })).rejects.toThrow(
      'port down',
    );
    expect(queue.tickets.size).toBe(1);
    expect(queue.failedTasks).toEqual([]);
  });
});

describe('dispatchProviderQueue: failing ports', () => {
  it('fails when the head cannot be read, admitting nothing (SQS delivers the wake-up again)', async () => {
    const { queue, ports, time } = setup(2);
    await expect(dispatchProviderQueue(time, { ...ports, readHead: failing() })).rejects.toThrow('port down');
    expect(queue.leases.size).toBe(0);
  });

  it('fails when the state cannot be read', async () => {
    const { ports, time } = setup(2);
    await expect(dispatchProviderQueue(time, { ...ports, readState: failing() })).rejects.toThrow(
      'port down',
    );
  });

  it('fails when a Task cannot be resumed, its lease staying for the next try or the reaper', async () => {
    const { queue, ports, time } = setup(1);
    await expect(dispatchProviderQueue(time, { ...ports, resumeAdmitted: failing() })).rejects.toThrow(
      'port down',
    );
    expect(queue.leases.size).toBe(1);
  });

  it('fails when its wake-up message cannot be sent', async () => {
    const { ports, time } = setup(4);
    await expect(dispatchProviderQueue(time, { ...ports, wakeDispatcher: failing() })).rejects.toThrow(
      'port down',
    );
  });
});
