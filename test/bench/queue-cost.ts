import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { acquireSlot, admissionPk, releaseSlot } from '../../functions/adapters/admission';
import { documentClient } from '../../functions/adapters/aws';
import { newGenerationItem } from '../../functions/adapters/generations';
import { storageSettings } from '../../functions/config/storage';
import { CALL_PROVIDER_MEMORY_MB, VISION_MEMORY_MB } from '../../functions/catalogue';
import { ticketSortKey } from '../../functions/domain/admission';
import { allStates, type AslMachine } from '../../infrastructure/local/stand-ins/step-functions/asl';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { configureHandlers } from '../helpers/handler-config';

/**
 * "The provider queue at scale" (issue 25, acceptance): what one admitted slot costs in DynamoDB capacity units and
 * Step Functions state transitions when 10, 100 or 1,000 generations wait, and the AWS cost per generation that
 * follows, beside today's. The waiting generations are seeded in DynamoDB Local as tickets (6 per generation, written
 * directly), not run as executions. Capacity is what DynamoDB Local reports with `ReturnConsumedCapacity: TOTAL`,
 * which an SDK middleware adds to every call the handlers' client makes while the measured slots are admitted and
 * released.
 *
 * Measured here: the admission design on main when this ran — the line as ticket items read by each try of
 * AcquireProviderSlot, one state item holding every lease (functions/adapters/admission.ts). The measured slots stand
 * at the back of the line with unlimited capacity (so each is admitted at its first try) and each try reads the line
 * ahead; a waiting slot polls with the same read, every `retryAt` the adapter answers, so its transitions per slot are
 * the ASL's path plus 3 per poll (AcquireProviderSlot, Admitted, WaitInLine) over its wait.
 *
 * When the provider queue of issue 25 item 1 replaces it (slots wait as task tokens, a dispatcher admits from the
 * head of the line), three things change here and nothing else: the seeding writes that design's tickets, the
 * measured slots go through its EnterLine / dispatch / release, and a waiting slot makes no polls (0 tries while it
 * waits: its transitions are the ASL path alone, ADMITTED_PATH updated to the new states).
 */

/** Prices of docs/costs.md (us-east-1, on demand), per unit. */
export const PRICES = {
  lambdaGbSecond: 0.0000133334,
  transition: 0.000025,
  writeRequestUnit: 0.000000625,
  readRequestUnit: 0.000000125,
} as const;

/** docs/costs.md "Per generation": today's total, with nobody waiting. */
export const TODAY_PER_GENERATION = 0.0178;

/**
 * docs/costs.md "Per generation", everything but the provider-slot Lambdas, Step Functions and DynamoDB: other
 * Lambda $0.00030, X-Ray $0.00050, logs $0.00013, S3 $0.00011, SES and secrets $0.00019, API Gateway and WAF $0.00018.
 */
const REST_PER_GENERATION = 0.0003 + 0.0005 + 0.00013 + 0.00011 + 0.00019 + 0.00018;
/** docs/costs.md: the generation's own DynamoDB units besides the queue (120 write, 150 read). */
const BASE_UNITS = { write: 120, read: 150 };
/** docs/costs.md's assumptions: 90 s per provider call, 5 s of likeness and encodes. */
const CALL_SECONDS = 90;
const FINISH_SECONDS = 5;
/** The execution's transitions outside the slots (PrepareReferences … NotifyReady), docs/costs.md. */
const TOP_LEVEL_TRANSITIONS = 6;

/** One row: N generations waiting. */
export interface QueueCostFigures {
  waitingGenerations: number;
  admittedSlots: number;
  /** DynamoDB capacity units of the admitting try and the release of one slot. */
  admitReadUnits: number;
  admitWriteUnits: number;
  /** Capacity units of one try that is not admitted (a waiting slot's poll) at the back of this line. */
  pollReadUnits: number;
  pollWriteUnits: number;
  /** Tries of AcquireProviderSlot a slot at the back of this line makes before its turn (its polls). */
  pollsPerSlot: number;
  /** Per admitted slot, its polls included. */
  readUnitsPerSlot: number;
  writeUnitsPerSlot: number;
  /** The ASL path of an admitted slot that saves its headshot, plus 3 per poll. */
  transitionsPerSlot: number;
  /** The AWS cost of a generation whose 6 slots wait behind this line (docs/costs.md prices), dollars. */
  costPerGeneration: number;
}

/** The states an admitted slot that saves its headshot enters, in order (checked against the ASL). */
const ADMITTED_PATH = [
  'AcquireProviderSlot',
  'Admitted',
  'CallProvider',
  'ProviderAnswered',
  'FinishHeadshot',
  'ReleaseProviderSlot',
  'AfterCall',
  'SlotDone',
] as const;
/** The states of one more try while a slot waits: WaitInLine → AcquireProviderSlot → Admitted. */
const TRANSITIONS_PER_POLL = 3;

function admittedPathLength(): number {
  const text = readFileSync(join(REPO_ROOT, 'statemachines', 'generation.asl.json'), 'utf8');
  const asl = JSON.parse(text.replace(/(?<!")\$\{[^}]+\}(?!")/g, '0')) as AslMachine;
  const names = new Set([...allStates(asl)].map(([name]) => name));
  for (const name of [...ADMITTED_PATH, 'WaitInLine']) {
    if (!names.has(name)) throw new Error(`The ASL has no state ${name}: update test/bench/queue-cost.ts`);
  }
  return ADMITTED_PATH.length;
}

/** Counts the capacity units of every call the handlers' DynamoDB client makes while `fn` runs. */
async function withCapacity<T>(fn: () => Promise<T>): Promise<{ value: T; read: number; write: number }> {
  const client = documentClient();
  const totals = { read: 0, write: 0 };
  const name = 'bench-consumed-capacity';
  type Consumed = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const reads = /^(Get|BatchGet|Query|Scan)/.test(context.commandName ?? '');
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
      for (const c of [consumed ?? []].flat()) {
        // DynamoDB Local reports only the total (CapacityUnits): a read call's are read units, any other's writes.
        if (reads) totals.read += c.CapacityUnits ?? 0;
        else totals.write += c.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    return { value: await fn(), ...totals };
  } finally {
    client.middlewareStack.remove(name);
  }
}

/** The owner of the measured generations (their items exist, as a running generation's do). */
const USER = 'bench-queue-cost';

async function putGenerations(ids: readonly string[]): Promise<void> {
  const table = storageSettings().TABLE_NAME;
  const now = new Date().toISOString();
  const items = ids.map((id) =>
    newGenerationItem({ id, sub: USER, style: 'professional', background: 'studio', referenceKeys: [], now }),
  );
  await documentClient().send(
    new BatchWriteCommand({ RequestItems: { [table]: items.map((Item) => ({ PutRequest: { Item } })) } }),
  );
}

async function deleteGenerations(ids: readonly string[]): Promise<void> {
  const table = storageSettings().TABLE_NAME;
  const keys = ids.map((id) => {
    const { PK, SK } = newGenerationItem({
      id,
      sub: USER,
      style: 'professional',
      background: 'studio',
      referenceKeys: [],
      now: '',
    }) as { PK: string; SK: string };
    return { DeleteRequest: { Key: { PK, SK } } };
  });
  await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: keys } }));
}

/** Writes (or deletes) the 6 tickets of each of `ids`, 25 per BatchWriteItem. */
async function writeTickets(ids: readonly string[], now: number, remove = false): Promise<void> {
  const keys = ids.flatMap((generationId) =>
    [0, 1, 2, 3, 4, 5].map((slot) => ({
      PK: admissionPk(),
      SK: ticketSortKey({ priority: 'standard', round: slot, generationId, slot }),
      generationId,
      slot,
    })),
  );
  const table = storageSettings().TABLE_NAME;
  for (let i = 0; i < keys.length; i += 25) {
    const batch = keys.slice(i, i + 25).map(({ PK, SK, generationId, slot }) =>
      remove
        ? { DeleteRequest: { Key: { PK, SK } } }
        : {
            PutRequest: {
              Item: {
                PK,
                SK,
                generationId,
                userId: `bench-${generationId}`,
                slot,
                seenAt: now,
                enqueuedAt: now,
              },
            },
          },
    );
    await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: batch } }));
  }
}

/**
 * Seeds `waiting` generations, then admits and releases `slots` slots of a newer generation behind them, counting
 * capacity; asks once more with a tier's limits (250 images/min, 400 in flight) how long such a slot waits and how
 * often it polls meanwhile. The seeded tickets are removed afterwards.
 */
export async function benchQueueCost(waiting: number, slots = 12): Promise<QueueCostFigures> {
  const saved = ['PROVIDER_IMAGES_PER_MINUTE', 'PROVIDER_MAX_CONCURRENCY'].map((k) => [k, process.env[k]]);
  const seeded = Array.from({ length: waiting }, () => ulid());
  const now = Date.now();
  await writeTickets(seeded, now);
  try {
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '0' });
    const startedAt = new Date().toISOString();
    const measured = Array.from({ length: Math.ceil(slots / 6) }, () => ulid());
    await putGenerations(measured);
    const { read, write } = await withCapacity(async () => {
      for (let i = 0; i < slots; i++) {
        const generationId = measured[Math.floor(i / 6)]!;
        const request = {
          generationId,
          userId: USER,
          slot: i % 6,
          round: i % 6,
          priority: 'standard' as const,
          startedAt,
        };
        const answer = await acquireSlot(request);
        if (!answer.granted) throw new Error('an unlimited admission point did not admit the slot');
        await releaseSlot(answer.leaseId);
      }
    });
    // The wait of a slot at the back of this line at a high tier, and its polls meanwhile.
    configureHandlers({ PROVIDER_IMAGES_PER_MINUTE: '250', PROVIDER_MAX_CONCURRENCY: '400' });
    const back = ulid();
    await putGenerations([back]);
    const poll = await withCapacity(() =>
      acquireSlot({ generationId: back, userId: USER, slot: 5, round: 5, priority: 'standard', startedAt }),
    );
    const ask = poll.value;
    await writeTickets([back], now, true);
    await deleteGenerations([...measured, back]);
    const pollMs = ask.granted ? 0 : Math.max(1, Date.parse(ask.retryAt) - Date.now());
    const waitSeconds = ((waiting * 6) / 250) * 60;
    const pollsPerSlot = ask.granted ? 0 : Math.ceil((waitSeconds * 1000) / pollMs);
    const transitionsPerSlot = admittedPathLength() + TRANSITIONS_PER_POLL * pollsPerSlot;
    const readUnitsPerSlot = read / slots + pollsPerSlot * poll.read;
    const writeUnitsPerSlot = write / slots + pollsPerSlot * poll.write;
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
      units.write * PRICES.writeRequestUnit +
      units.read * PRICES.readRequestUnit;
    return {
      waitingGenerations: waiting,
      admittedSlots: slots,
      admitReadUnits: read / slots,
      admitWriteUnits: write / slots,
      pollReadUnits: poll.read,
      pollWriteUnits: poll.write,
      readUnitsPerSlot,
      writeUnitsPerSlot,
      pollsPerSlot,
      transitionsPerSlot,
      costPerGeneration,
    };
  } finally {
    await writeTickets(seeded, now, true);
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
  return figures.flatMap((f) => {
    const units = f.readUnitsPerSlot + f.writeUnitsPerSlot;
    const unitsRatio = first ? units / (first.readUnitsPerSlot + first.writeUnitsPerSlot) : 1;
    const transitionsRatio = first ? f.transitionsPerSlot / first.transitionsPerSlot : 1;
    return [
      [
        area,
        `${f.waitingGenerations} generations waiting (seeded): DynamoDB capacity units`,
        `${units.toFixed(1)} (read ${f.readUnitsPerSlot.toFixed(1)}, write ${f.writeUnitsPerSlot.toFixed(1)}): ` +
          `admitting try + release ${(f.admitReadUnits + f.admitWriteUnits).toFixed(1)}, ${f.pollsPerSlot} polls × ` +
          `${(f.pollReadUnits + f.pollWriteUnits).toFixed(1)}`,
        `goal flat: ≤ 1.2× the ${first?.waitingGenerations ?? 10} row (${verdict(unitsRatio)})`,
        `${unitsRatio.toFixed(2)}×`,
      ],
      [
        area,
        `${f.waitingGenerations} generations waiting (seeded): Step Functions state transitions`,
        `${f.transitionsPerSlot} (${f.pollsPerSlot} polls × 3 + the admitted path)`,
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
