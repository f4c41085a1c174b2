import { afterEach, describe, expect, it } from 'vitest';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reclaimExpired, releaseLease, returnPermit } from '../../functions/adapters/provider-queue/leases';
import { queueLimits, queuePk } from '../../functions/adapters/provider-queue/settings';
import { readState } from '../../functions/adapters/provider-queue/state';
import {
  admitTickets,
  readHead,
  removeTicket,
  setTicketAside,
} from '../../functions/adapters/provider-queue/tickets';
import { documentClient } from '../../functions/adapters/support/aws';
import { storageSettings } from '../../functions/config/storage';
import { admitSlots } from '../../functions/domain/provider-queue';
import { leaseId, type QueuePriority, type QueueTicket } from '../../functions/domain/provider-queue-order';
import { WAIT_BUDGET_MS, waitUntil } from '../../functions/domain/provider-queue-dispatch';
import {
  dispatchProviderQueue,
  dispatchProviderQueueAdapters,
  type DispatchProviderQueuePorts,
} from '../../functions/use-cases/dispatch-provider-queue';
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

/**
 * The dispatcher's real adapters but for its wake-ups: a wake-up this file's calls asked for would run the stack's own
 * dispatcher later, in the middle of another test, admitting that test's tickets before it does (the wake-ups asked
 * for are in each result's `wakeUpIn`).
 */
const quiet: DispatchProviderQueuePorts = {
  ...dispatchProviderQueueAdapters,
  wakeDispatcher: () => Promise.resolve(),
};

/**
 * Puts `slots` tickets of one generation (tokens Step Functions does not know: each lease comes straight back), of a
 * customer of class `priority`, started `agoMs` before now.
 */
async function queueSlots(
  generationId: string,
  slots: number,
  priority: QueuePriority = 'standard',
  agoMs = 0,
): Promise<void> {
  const startedAt = new Date(Date.now() - agoMs).toISOString();
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
      priority,
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
    const result = await dispatchProviderQueue({ ...time, waitUntil: time.clock() + WAIT_BUDGET_MS }, quiet);

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
    const result = await dispatchProviderQueue({ ...time, waitUntil: time.clock() + 700 }, quiet);

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
    expect(await dispatchProviderQueue(time, quiet)).toMatchObject({ admitted: 2, waits: 0, wakeUpIn: 1 });
    // At once again: an empty bucket and nothing admitted in this invocation — a wake-up, no wait.
    expect(
      await dispatchProviderQueue({ ...time, waitUntil: time.clock() + WAIT_BUDGET_MS }, quiet),
    ).toMatchObject({
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

describe("two tickets of one slot's call (an EnterLine retried after the standing changed)", () => {
  const id = '01JDISPATCHTWOTICKETS00000';
  const lease = leaseId({ generationId: id, slot: 0, call: 0 });

  /** The same call entered twice: as a standard customer, then (the retry) as a priority one — two order keys. */
  async function enterTwice(): Promise<QueueTicket[]> {
    await clearLine(id);
    const entry = { generationId: id, userId: 'dispatch-test', slot: 0, round: 1, call: 0 };
    const startedAt = new Date().toISOString();
    await enqueueSlot({ ...entry, taskToken: 'first-try', startedAt }, 'standard', Date.now() - 1_000);
    await enqueueSlot({ ...entry, taskToken: 'retry', startedAt }, 'priority');
    return (await readHead(50)).filter((t) => t.generationId === id);
  }

  it('DynamoDB refuses both in one transaction, and the dispatcher admits the later one once, deleting the other', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '120', PROVIDER_MAX_CONCURRENCY: '10' });
    const tickets = await enterTwice();
    expect(tickets.map((t) => t.taskToken)).toEqual(['retry', 'first-try']);

    // Two puts of one lease in one transaction: DynamoDB refuses the request (DynamoDB Local too, when the puts
    // carry no condition; with conditions it cancels the later put instead, which the adapter guards against).
    const leaseKey = { PK: queuePk('LEASE'), SK: lease };
    const TableName = storageSettings().TABLE_NAME;
    const twice = documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { ...leaseKey, taskToken: 'retry' } } },
          { Put: { TableName, Item: { ...leaseKey, taskToken: 'first-try' } } },
        ],
      }),
    );
    await expect(twice).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });

    // What the dispatcher did before: both in one batch. The adapter answers as DynamoDB does, writing nothing.
    const state = await readState(true);
    const now = Date.now() + 30_000;
    const refused = await admitTickets({
      state,
      next: admitSlots(state, queueLimits(), 2, now),
      tickets,
      grantedAt: now,
      leaseUntil: now + 600_000,
    });
    expect(refused).toEqual({
      written: false,
      held: [],
      refused: {
        tickets,
        error: 'ValidationException',
        message: 'Transaction request cannot include multiple operations on one item',
      },
    });
    expect(await leaseItem(lease)).toBeUndefined();

    const resumed: string[] = [];
    const ports: DispatchProviderQueuePorts = {
      ...quiet,
      freeShare: () => 0.25,
      resumeAdmitted: async (taskToken) => {
        resumed.push(taskToken);
        return true;
      },
    };
    const result = await dispatchProviderQueue(fakeTime(now), ports);
    expect(result).toMatchObject({ admitted: 1, setAside: 0 });
    expect(resumed).toEqual(['retry']);
    expect(await leaseItem(lease)).toMatchObject({ taskToken: 'retry' });
    expect(await lineOf(id)).toEqual([]);
    await releaseLease(lease);
  });

  it('sets a refused ticket aside: out of the line, its copy and the refusal kept in the ASIDE partition', async () => {
    const [ticket, older] = await enterTwice();
    const now = Date.now();
    const refusal = { error: 'ValidationError', message: 'Item size has exceeded the maximum allowed size' };
    expect(await setTicketAside(ticket!, refusal, now)).toBe(true);
    // Twice: the ticket is gone, nothing more is written.
    expect(await setTicketAside(ticket!, refusal, now)).toBe(false);
    expect((await lineOf(id)).map((t) => t.taskToken)).toEqual(['first-try']);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: queuePk('ASIDE'), SK: `${lease}#${ticket!.enqueuedAt}` },
        ConsistentRead: true,
      }),
    );
    expect(Item).toMatchObject({ taskToken: 'retry', generationId: id, ...refusal, setAsideAt: now });
    expect(await removeTicket(older!)).toBe(true);
  });
});

describe('two lanes at 120 images/min', () => {
  afterEach(async () => {
    await clearLine('01JDISPATCHFREELANE0000000');
    await clearLine('01JDISPATCHPAIDLANE0000000');
  });

  it('reads the paid lane first and keeps the free share in the state (decision 019)', async () => {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '120', PROVIDER_MAX_CONCURRENCY: '10' });
    const free = '01JDISPATCHFREELANE0000000';
    const paid = '01JDISPATCHPAIDLANE0000000';
    // The free lane has nothing in hand from earlier admissions.
    await documentClient().send(
      new UpdateCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: queuePk('STATE'), SK: 'STATE' },
        UpdateExpression: 'SET freeAllowance = :none',
        ExpressionAttributeValues: { ':none': 0 },
      }),
    );
    // The free generation started a minute before the paid one.
    await queueSlots(free, 2, 'free', 60_000);
    await queueSlots(paid, 4, 'standard');
    expect((await readHead(10, 'paid')).map((t) => t.generationId)).toEqual(Array(4).fill(paid));
    expect((await readHead(10, 'free')).map((t) => t.generationId)).toEqual(Array(2).fill(free));

    // The order the Tasks are resumed in (the tokens are unknown to Step Functions: each lease comes straight back).
    const resumed: string[] = [];
    const ports: DispatchProviderQueuePorts = {
      ...quiet,
      freeShare: () => 0.25,
      resumeAdmitted: async (taskToken) => {
        resumed.push(taskToken.includes('PAID') ? 'paid' : 'free');
        return false;
      },
    };
    // Seconds after the gate's last admission (earlier tests' clocks ran ahead of the real one): the bucket is full.
    const before = await readState(true);
    const time = fakeTime(Math.max(Date.now(), before.refilledAt, before.pausedUntil) + 5_000);
    const result = await dispatchProviderQueue({ ...time, waitUntil: time.clock() + WAIT_BUDGET_MS }, ports);
    expect(result).toMatchObject({ admitted: 6 });
    // 2 paid (allowance 0.5), 1 paid (0.75), then the last paid one fits: every paid slot before the free ones.
    expect(resumed).toEqual(['paid', 'paid', 'paid', 'paid', 'free', 'free']);
    expect((await readState(true)).freeAllowance).toBe(0.75);
    expect(await lineOf(free)).toEqual([]);
  });
});
