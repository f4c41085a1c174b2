import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient, sfnClient } from '../../functions/adapters/support/aws';
import { releaseLease, returnPermit } from '../../functions/adapters/provider-queue/leases';
import { livePlace } from '../../functions/adapters/provider-queue/positions';
import { readState } from '../../functions/adapters/provider-queue/state';
import { currentPriority } from '../../functions/adapters/provider-queue/tickets';
import {
  counterPk,
  deadlineMs,
  expiresAt,
  headStartMs,
  queuePk,
} from '../../functions/adapters/provider-queue/settings';
import {
  countCapacity,
  queueUsage,
  resetQueueUsage,
  type QueueUsage,
} from '../../functions/adapters/provider-queue/usage';
import { storageSettings } from '../../functions/config/storage';
import { CALL_PROVIDER_MEMORY_MB, VISION_MEMORY_MB } from '../../functions/catalogue';
import { leaseId, orderKey, ticketSk } from '../../functions/domain/provider-queue-order';
import { counterKeys, placeSk } from '../../functions/domain/provider-queue-positions';
import { dispatchProviderQueue } from '../../functions/use-cases/dispatch-provider-queue';
import { enqueueSlot } from '../../functions/use-cases/enqueue-provider-call';
import { assertSlotMayQueue } from '../../functions/use-cases/likeness-cap-before-call';
import { allStates, type AslMachine } from '../../infrastructure/local/stand-ins/step-functions/asl';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { configureHandlers } from '../helpers/handler-config';
import { generationItem } from '../helpers/generation-items';

/**
 * "The provider queue at scale" (issue 25, acceptance): what one admitted slot costs in DynamoDB capacity units and
 * Step Functions state transitions when 10, 100 or 1,000 generations wait, and the AWS cost per generation that
 * follows, beside today's. Measured: the provider queue (functions/adapters/provider-queue, docs/architecture.md §4)
 * — slots wait as task tokens in a line of tickets, a dispatcher admits the head of the line.
 *
 * The waiting generations are seeded as the real EnterLine writes them (domain/provider-queue-order.ts and
 * provider-queue-positions.ts keys): 6 tickets each with a task token nobody waits on, one place entry each, and the
 * place counters at every level summed over them — by BatchWriteItem, not run as executions. The measured slots (2
 * generations × 6) started before them, so they stand at the head of the line, as the slot being admitted always does.
 * Per slot, in order: the likeness cap and the customer's standing (EnterLine's reads), `enqueueSlot`,
 * `dispatchProviderQueue()` with one free permit (it admits the measured ticket, resumes its Task, marks the generation
 * running, then reads the head once more and stops: the permit is held), two `GET /api/generations/{id}` place reads of
 * the generation at the BACK of the line (the wizard's poll, its most expensive place), `returnPermit` (CallProvider,
 * once the provider answered with an image) and `releaseLease` (ReleaseProviderSlot, which then only deletes the
 * lease). Capacity is the queue's own count (adapters/provider-queue/usage.ts, every call with `ReturnConsumedCapacity:
 * TOTAL`, as DynamoDB Local reports it), the gate and standing reads included: an SDK middleware counts them into the
 * same tally as operation `gate`.
 *
 * Not sent, because they would wake the local stack's own dispatcher in this process and admit the seeded tickets:
 * EnterLine's and CallProvider's wake-ups (2 SQS messages per slot, priced below); the measured Tasks'
 * SendTaskSuccess is answered by an SDK middleware (a Step Functions call costs no capacity or transition).
 * A waiting slot makes no call at all: its transitions per slot are the ASL path alone.
 */

/** Prices of docs/costs.md (us-east-1, on demand), per unit. */
export const PRICES = {
  lambdaGbSecond: 0.0000133334,
  transition: 0.000025,
  writeRequestUnit: 0.000000625,
  readRequestUnit: 0.000000125,
  sqsRequest: 0.0000004,
} as const;

/** docs/costs.md "Per generation": today's total, with nobody waiting. */
export const TODAY_PER_GENERATION = 0.0178;

/**
 * docs/costs.md "The new design", everything but the slot Lambdas, Step Functions, SQS and DynamoDB: other Lambda
 * (the dispatcher included) $0.00031, X-Ray $0.00050, logs $0.00013, S3 $0.00011, SES and secrets $0.00019, API
 * Gateway and WAF $0.00018.
 */
const REST_PER_GENERATION = 0.00031 + 0.0005 + 0.00013 + 0.00011 + 0.00019 + 0.00018;
/** docs/costs.md: the generation's own DynamoDB units besides the queue (120 write, 150 read). */
const BASE_UNITS = { write: 120, read: 150 };
/** docs/costs.md's assumptions: 90 s per provider call, 5 s of likeness and encodes. */
const CALL_SECONDS = 90;
const FINISH_SECONDS = 5;
/** The execution's transitions outside the slots (PrepareReferences … NotifyReady), docs/costs.md. */
const TOP_LEVEL_TRANSITIONS = 6;
/** Wake-ups per slot (EnterLine's and ReleaseProviderSlot's), each sent, received and deleted: 3 SQS requests. */
const WAKE_UPS_PER_SLOT = 2;
const SQS_REQUESTS_PER_WAKE_UP = 3;
/** `GET /api/generations/{id}` polls counted per admitted slot (the place reads of a waiting generation). */
const POLLS_PER_SLOT = 2;

/** One row: N generations waiting. */
export interface QueueCostFigures {
  waitingGenerations: number;
  admittedSlots: number;
  /** Per admitted slot, by operation (enter, place, state, dispatch, admitted, release, gate): read units. */
  readByOperation: QueueUsage['rcu'];
  writeByOperation: QueueUsage['wcu'];
  readUnitsPerSlot: number;
  writeUnitsPerSlot: number;
  /** Step Functions callbacks per admitted slot (SendTaskSuccess). */
  callbacksPerSlot: number;
  /** The ASL path of an admitted slot that saves its headshot (nothing while it waits). */
  transitionsPerSlot: number;
  /** The AWS cost of a generation whose 6 slots wait behind this line (docs/costs.md prices), dollars. */
  costPerGeneration: number;
}

/** The states an admitted slot that saves its headshot enters, in order (checked against the ASL). */
const ADMITTED_PATH = [
  'EnterLine',
  'CallProvider',
  'ProviderAnswered',
  'FinishHeadshot',
  'ReleaseProviderSlot',
  'AfterCall',
  'SlotDone',
] as const;

function admittedPathLength(): number {
  const text = readFileSync(join(REPO_ROOT, 'statemachines', 'generation.asl.json'), 'utf8');
  const asl = JSON.parse(text.replace(/(?<!")\$\{[^}]+\}(?!")/g, '0')) as AslMachine;
  const names = new Set([...allStates(asl)].map(([name]) => name));
  for (const name of ADMITTED_PATH) {
    if (!names.has(name)) throw new Error(`The ASL has no state ${name}: update test/bench/queue-cost.ts`);
  }
  return ADMITTED_PATH.length;
}

/**
 * Counts the capacity units of every call the handlers' DynamoDB client makes while `fn` runs as the queue's own
 * operation `operation` (adapters/provider-queue/usage.ts `countCapacity`): read units for Get, BatchGet, Query and
 * Scan, write units for the rest, each call made with `ReturnConsumedCapacity: TOTAL` as the queue's own are.
 */
async function countingCapacityAs<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  const client = documentClient();
  const name = 'bench-consumed-capacity';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const kind = /^(Get|BatchGet|Query|Scan)/.test(context.commandName ?? '') ? 'read' : 'write';
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      countCapacity(
        operation,
        kind,
        (result.output as { ConsumedCapacity?: ConsumedCapacity }).ConsumedCapacity,
      );
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    return await fn();
  } finally {
    client.middlewareStack.remove(name);
  }
}

/** Measured slots' task tokens start with this: their SendTaskSuccess is answered here, with no Task behind it. */
const MEASURED_TOKEN = 'bench-queue-cost-measured#';

/** While `fn` runs, SendTaskSuccess for a measured token succeeds without leaving the process. */
async function answeringMeasuredTokens<T>(fn: () => Promise<T>): Promise<T> {
  const client = sfnClient();
  const name = 'bench-measured-tokens';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const token = (args.input as { taskToken?: string }).taskToken ?? '';
      if (context.commandName === 'SendTaskSuccessCommand' && token.startsWith(MEASURED_TOKEN)) {
        return { output: { $metadata: {} }, response: {} } as Awaited<ReturnType<typeof next>>;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return await fn();
  } finally {
    client.middlewareStack.remove(name);
  }
}

/** The owner of the measured generations (their items exist, as a running generation's do). */
const USER = 'bench-queue-cost';

type Item = Record<string, unknown> & { PK: string; SK: string };

/** Puts (or deletes) `items`, 25 per BatchWriteItem. */
async function batchWrite(items: readonly Item[], remove = false): Promise<void> {
  const table = storageSettings().TABLE_NAME;
  for (let i = 0; i < items.length; i += 25) {
    const batch = items
      .slice(i, i + 25)
      .map((Item) =>
        remove ? { DeleteRequest: { Key: { PK: Item.PK, SK: Item.SK } } } : { PutRequest: { Item } },
      );
    await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: batch } }));
  }
}

/**
 * The items `waiting` generations that started `spreadMs` apart from `firstStart` (epoch ms) have in the line, as
 * EnterLine writes them: 6 tickets each, a place entry each, and the counters of every level with their sums.
 */
function seededLine(
  waiting: number,
  firstStart: number,
  spreadMs: number,
): { items: Item[]; back: { key: number; generationId: string } } {
  const items: Item[] = [];
  const counters = new Map<string, Item>();
  let back = { key: 0, generationId: '' };
  for (let g = 0; g < waiting; g++) {
    const generationId = ulid();
    const started = firstStart + g * spreadMs;
    const key = orderKey(started, 'standard', headStartMs());
    const deadline = started + deadlineMs();
    const expires = expiresAt(key + deadlineMs() + headStartMs(), 0);
    for (let slot = 0; slot < 6; slot++) {
      items.push({
        PK: queuePk('LINE'),
        SK: ticketSk({ orderKey: key, generationId, slot }),
        taskToken: `bench-queue-cost-seeded#${generationId}#${slot}`,
        generationId,
        userId: `bench-${generationId}`,
        slot,
        call: 0,
        deadline,
        enqueuedAt: started,
        expiresAt: expiresAt(deadline, 0),
      });
    }
    items.push({
      PK: queuePk('PLACE'),
      SK: placeSk({ orderKey: key, generationId }),
      expiresAt: expires,
    });
    back = { key, generationId };
    for (const { levelMs, sk } of counterKeys(key)) {
      const id = `${counterPk(levelMs)} ${sk}`;
      const counter = counters.get(id) ?? { PK: counterPk(levelMs), SK: sk, waiting: 0, expiresAt: expires };
      counter.waiting = Number(counter.waiting) + 1;
      counters.set(id, counter);
    }
  }
  return { items: [...items, ...counters.values()], back };
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * Seeds `waiting` generations, then admits and releases `slots` slots of generations at the head of the line,
 * counting capacity units by operation (see the module's comment). The seeded items are removed afterwards.
 */
export async function benchQueueCost(waiting: number, slots = 12): Promise<QueueCostFigures> {
  const saved = ['PROVIDER_IMAGES_PER_MINUTE', 'PROVIDER_MAX_CONCURRENCY'].map((k) => [k, process.env[k]]);
  const now = Date.now();
  // The seeded generations started 25 s ago, 20 ms apart; the measured ones 90 s ago (ahead of them).
  const seeded = seededLine(waiting, now - 25_000, 20);
  await batchWrite(seeded.items);
  const generations = Array.from({ length: Math.ceil(slots / 6) }, () =>
    generationItem(USER, { background: 'studio', referenceKeys: [] }),
  );
  const measured = generations.map((g) => g.id);
  const measuredItems = generations.map((g) => g.item as Item);
  await batchWrite(measuredItems);
  try {
    // One free permit and no rate limit: each dispatch admits the measured ticket at the head, then stops.
    const inFlight = (await readState(true)).inFlight;
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: String(inFlight + 1) });
    const startedAt = new Date(now - 90_000).toISOString();
    const { key: backKey, generationId: backId } = seeded.back;
    resetQueueUsage();
    const admittedBefore = queueUsage().admitted;
    await answeringMeasuredTokens(async () => {
      for (let i = 0; i < slots; i++) {
        const generationId = measured[Math.floor(i / 6)]!;
        const slot = i % 6;
        const entry = {
          taskToken: `${MEASURED_TOKEN}${generationId}#${slot}`,
          generationId,
          userId: USER,
          slot,
          round: slot,
          call: 0,
          startedAt,
        };
        const priority = await countingCapacityAs('gate', async () => {
          await assertSlotMayQueue(USER, generationId);
          return currentPriority(USER);
        });
        await enqueueSlot(entry, priority);
        const result = await dispatchProviderQueue();
        if (result.admitted !== 1)
          throw new Error(`dispatch admitted ${result.admitted} slots, not the measured one`);
        for (let poll = 0; poll < POLLS_PER_SLOT; poll++) {
          if (!(await livePlace(backKey, backId)))
            throw new Error('the place of the back of the line failed');
        }
        // The provider answered with an image: CallProvider gives the permit back, ReleaseProviderSlot deletes the lease.
        if (!(await returnPermit(leaseId({ generationId, slot, call: 0 }))))
          throw new Error('no permit to give back');
        await releaseLease(leaseId({ generationId, slot, call: 0 }));
      }
    });
    const usage: QueueUsage = queueUsage();
    const admitted = usage.admitted - admittedBefore;
    if (admitted !== slots) throw new Error(`${admitted} slots admitted, ${slots} measured`);
    // The reaper (the local stack's, every minute) is not per slot.
    delete usage.rcu.reap;
    delete usage.wcu.reap;
    const perSlot = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).map(([op, units]) => [op, units / slots]));
    const readByOperation = perSlot(usage.rcu);
    const writeByOperation = perSlot(usage.wcu);
    const readUnitsPerSlot = sum(readByOperation);
    const writeUnitsPerSlot = sum(writeByOperation);
    const transitionsPerSlot = admittedPathLength();
    const units = {
      read: BASE_UNITS.read + 6 * readUnitsPerSlot,
      write: BASE_UNITS.write + 6 * writeUnitsPerSlot,
    };
    const lambdaGbSeconds =
      6 * ((CALL_PROVIDER_MEMORY_MB / 1024) * CALL_SECONDS + (VISION_MEMORY_MB / 1024) * FINISH_SECONDS);
    const costPerGeneration =
      REST_PER_GENERATION +
      lambdaGbSeconds * PRICES.lambdaGbSecond +
      (TOP_LEVEL_TRANSITIONS + 6 * transitionsPerSlot) * PRICES.transition +
      6 * WAKE_UPS_PER_SLOT * SQS_REQUESTS_PER_WAKE_UP * PRICES.sqsRequest +
      units.write * PRICES.writeRequestUnit +
      units.read * PRICES.readRequestUnit;
    return {
      waitingGenerations: waiting,
      admittedSlots: slots,
      readByOperation,
      writeByOperation,
      readUnitsPerSlot,
      writeUnitsPerSlot,
      callbacksPerSlot: usage.callbacks / slots,
      transitionsPerSlot,
      costPerGeneration,
    };
  } finally {
    await batchWrite(seeded.items, true);
    await batchWrite(measuredItems, true);
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key!];
      else process.env[key!] = value;
    }
    configureHandlers({});
  }
}

/** The rows of `npm run bench` for {@link benchQueueCost}'s figures (10, 100 and 1,000 waiting). */
export function queueCostRows(
  figures: readonly QueueCostFigures[],
): [string, string, string, string, string][] {
  const first = figures[0];
  const area = 'provider queue at scale (per admitted slot)';
  const verdict = (x: number) => (x <= 1.2 ? 'met' : 'NOT met');
  const ops = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, units]) => units > 0)
      .map(([op, units]) => `${op} ${units.toFixed(1)}`)
      .join(', ');
  return figures.flatMap((f) => {
    const units = f.readUnitsPerSlot + f.writeUnitsPerSlot;
    const unitsRatio = first ? units / (first.readUnitsPerSlot + first.writeUnitsPerSlot) : 1;
    const transitionsRatio = first ? f.transitionsPerSlot / first.transitionsPerSlot : 1;
    return [
      [
        area,
        `${f.waitingGenerations} generations waiting (seeded): DynamoDB capacity units`,
        `${units.toFixed(1)}: read ${f.readUnitsPerSlot.toFixed(1)} (${ops(f.readByOperation)}), ` +
          `write ${f.writeUnitsPerSlot.toFixed(1)} (${ops(f.writeByOperation)})`,
        `goal flat: ≤ 1.2× the ${first?.waitingGenerations ?? 10} row (${verdict(unitsRatio)})`,
        `${unitsRatio.toFixed(2)}×`,
      ],
      [
        area,
        `${f.waitingGenerations} generations waiting (seeded): Step Functions state transitions`,
        `${f.transitionsPerSlot} (the admitted path; none while waiting; ${f.callbacksPerSlot.toFixed(1)} callbacks)`,
        `goal flat: ≤ 1.2× the ${first?.waitingGenerations ?? 10} row (${verdict(transitionsRatio)})`,
        `${transitionsRatio.toFixed(2)}×`,
      ],
      [
        area,
        `${f.waitingGenerations} generations waiting: AWS cost per generation (docs/costs.md prices)`,
        `$${f.costPerGeneration.toFixed(4)}`,
        `today $${TODAY_PER_GENERATION.toFixed(4)} with nobody waiting (docs/costs.md)`,
        `${(f.costPerGeneration / TODAY_PER_GENERATION).toFixed(2)}×`,
      ],
    ];
  });
}
