import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

/**
 * What the provider queue costs, counted in the process that runs it: DynamoDB capacity units (from every call's
 * `ReturnConsumedCapacity: 'TOTAL'`), SQS messages, Step Functions callbacks, and slots admitted — so the bench
 * (test/bench) and the logs can divide them per admitted slot. In a Lambda the counts live as long as its execution
 * environment; the dispatcher logs them per invocation.
 */
export interface QueueUsage {
  /** Read capacity units, by operation (`enter`, `dispatch`, `release`, `reap`, `place`). */
  rcu: Record<string, number>;
  /** Write capacity units, by operation. */
  wcu: Record<string, number>;
  /** SQS SendMessage calls (wake-ups). */
  wakeUps: number;
  /** SendTaskSuccess / SendTaskFailure calls. */
  callbacks: number;
  /** Slots admitted (leases put). */
  admitted: number;
  /** Dispatches run (one per dispatcher invocation), their total and longest duration in ms. */
  dispatches: number;
  dispatchMs: number;
  longestDispatchMs: number;
  /** Admission transactions that lost the state's version race to another writer (a concurrent dispatch, a pause). */
  lostRaces: number;
}

const empty = (): QueueUsage => ({
  rcu: {},
  wcu: {},
  wakeUps: 0,
  callbacks: 0,
  admitted: 0,
  dispatches: 0,
  dispatchMs: 0,
  longestDispatchMs: 0,
  lostRaces: 0,
});
let usage = empty();

/**
 * Adds a DynamoDB response's consumed capacity to `operation`'s read or write units (nothing on an emulator that
 * omits it). A TransactWriteItems's units are writes (its condition checks included), a Get's or Query's reads.
 */
export function countCapacity(
  operation: string,
  kind: 'read' | 'write',
  consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
): void {
  const units = [consumed ?? []]
    .flat()
    .reduce(
      (sum, c) => sum + (c.CapacityUnits ?? (c.ReadCapacityUnits ?? 0) + (c.WriteCapacityUnits ?? 0)),
      0,
    );
  const counts = kind === 'read' ? usage.rcu : usage.wcu;
  counts[operation] = (counts[operation] ?? 0) + units;
}

/** Counts one event of the queue. */
export function countEvent(kind: 'wakeUps' | 'callbacks' | 'admitted' | 'lostRaces', n = 1): void {
  usage[kind] += n;
}

/** Counts one dispatch that took `ms`. */
export function countDispatch(ms: number): void {
  usage.dispatches += 1;
  usage.dispatchMs += ms;
  usage.longestDispatchMs = Math.max(usage.longestDispatchMs, ms);
}

/** A copy of the counts so far. */
export function queueUsage(): QueueUsage {
  return structuredClone(usage);
}

/** Starts counting from zero (the bench, between rows). */
export function resetQueueUsage(): void {
  usage = empty();
}
