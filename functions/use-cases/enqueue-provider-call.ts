import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { positionOf, registerPosition } from '../adapters/provider-queue/positions';
import { deadlineMs, headStartMs, queueLimits } from '../adapters/provider-queue/settings';
import { readState } from '../adapters/provider-queue/state';
import { currentPriority, putTicket } from '../adapters/provider-queue/tickets';
import { getGeneration } from '../adapters/generations';
import { countMetric } from '../common/metrics';
import { etaSeconds, type QueueLimits, type QueueState } from '../domain/provider-queue';
import {
  orderKey,
  registersPosition,
  ticketDeadline,
  type QueueEntry,
  type QueuePriority,
} from '../domain/provider-queue-order';
import { slotsAhead } from '../domain/provider-queue-positions';
import { payerAccount, type LedgerAccount } from '../domain/ledger-account';
import { assertSlotMayQueue } from './likeness-cap-before-call';

/**
 * Enqueueing a provider call (docs/architecture.md §4): the slot's ticket goes into the provider queue, in its
 * generation's order (domain/provider-queue-order.ts), and the dispatcher is woken; the generation's first slot also
 * registers its position, which the wizard shows.
 */

/** What enqueueing needs from the outside world: the likeness cap, the customer's standing, the queue's items. */
export interface EnqueueProviderCallPorts {
  /** The likeness cap before a slot is enqueued (use-cases/likeness-cap-before-call.ts). */
  assertSlotMayQueue: (sub: string, generationId: string) => Promise<void>;
  /** Whose purchases decide the slot's standing: the generation's payer (a team's for a team-paid one). */
  payerOf: (sub: string, generationId: string) => Promise<LedgerAccount>;
  currentPriority: typeof currentPriority;
  putTicket: typeof putTicket;
  positionOf: typeof positionOf;
  registerPosition: typeof registerPosition;
  readState: (consistent: boolean) => Promise<QueueState>;
  wakeDispatcher: typeof wakeDispatcher;
  queueLimits: () => QueueLimits;
  /** GENERATION_DEADLINE_MINUTES in ms. */
  deadlineMs: () => number;
  /** PROVIDER_PRIORITY_HEAD_START_SECONDS in ms. */
  headStartMs: () => number;
}

const adapters: EnqueueProviderCallPorts = {
  assertSlotMayQueue: (sub, generationId) => assertSlotMayQueue(sub, generationId),
  payerOf: async (sub, generationId) =>
    payerAccount((await getGeneration(sub, generationId)) ?? { userId: sub }),
  currentPriority,
  putTicket,
  positionOf,
  registerPosition,
  readState,
  wakeDispatcher,
  queueLimits,
  deadlineMs,
  headStartMs,
};

/**
 * Workflow task EnterLine: a slot the likeness cap lets through is enqueued at its payer's standing NOW (the
 * customer's, or the team's for a team-paid generation: a refund or a dispute since the start takes effect at once),
 * then the dispatcher is woken. The Task then waits for the
 * dispatcher to resume it with a lease.
 *
 * @param now epoch ms (tests)
 * @returns the ticket's order key (epoch ms)
 * @throws {LikenessStoppedError | ProviderCallCapError} the likeness cap refuses the slot: no ticket, refunded
 * @throws {AdmissionDeadlineError} the generation's deadline has passed: no ticket, refunded
 */
export async function enqueueProviderCall(
  entry: QueueEntry,
  now = Date.now(),
  ports: EnqueueProviderCallPorts = adapters,
): Promise<{ orderKey: number }> {
  await ports.assertSlotMayQueue(entry.userId, entry.generationId);
  const priority = await ports.currentPriority(await ports.payerOf(entry.userId, entry.generationId));
  const key = await enqueueSlot(entry, priority, now, ports);
  await ports.wakeDispatcher('enter');
  return { orderKey: key };
}

/**
 * Puts a slot's ticket in the queue at `priority`, registering its generation's position first when it is the
 * generation's first slot (domain `registersPosition`). Wakes nobody: {@link enqueueProviderCall} does, and the
 * adapters' contract tests call this alone.
 *
 * @param now epoch ms
 * @returns the ticket's order key (epoch ms)
 * @throws {AdmissionDeadlineError} the generation's deadline has passed at `now`: no ticket is put
 */
export async function enqueueSlot(
  entry: QueueEntry,
  priority: QueuePriority,
  now = Date.now(),
  ports: EnqueueProviderCallPorts = adapters,
): Promise<number> {
  const deadline = ticketDeadline(entry, ports.deadlineMs(), now);
  const key = orderKey(entry.startedAt, priority, ports.headStartMs());
  if (registersPosition(entry)) await register(entry, key, now, ports);
  await ports.putTicket(entry, key, deadline, now);
  return key;
}

/** Registers the generation's position with its estimated wait; counts the queue's length when it joins. */
async function register(
  entry: QueueEntry,
  key: number,
  now: number,
  ports: EnqueueProviderCallPorts,
): Promise<void> {
  const position = await ports.positionOf(key, entry.generationId);
  const eta = etaSeconds(await ports.readState(false), ports.queueLimits(), slotsAhead(position), now);
  const registered = await ports.registerPosition({
    userId: entry.userId,
    generationId: entry.generationId,
    orderKey: key,
    position,
    etaSeconds: eta,
    now,
  });
  // The dashboard's queue: how long the queue is when a generation joins it (once: not for an earlier try's).
  if (registered) countMetric('QueuePosition', position);
}
