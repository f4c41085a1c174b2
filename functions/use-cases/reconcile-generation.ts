import { describeExecutionStatus } from '../adapters/executions';
import { getGeneration, setCheckedAt, type GenerationRecord } from '../adapters/generations';
import { logger } from '../common/logger';
import { GENERATION_ERROR_MESSAGES, type GenerationError } from '../domain/generation-errors';
import { isTerminal } from '../domain/generation-status';
import { compensateGeneration } from './compensate-generation';

/**
 * How long a generation may go without any write before its execution is checked, in ms. Longer than any one
 * step's silence is not needed: a RUNNING answer only postpones the next check by as much again.
 */
export const RECONCILE_AFTER_MS = 60_000;

/** What reconciling a generation with its execution needs from the outside world (and the compensation). */
export interface ReconcileGenerationPorts {
  describeExecutionStatus: typeof describeExecutionStatus;
  getGeneration: typeof getGeneration;
  setCheckedAt: typeof setCheckedAt;
  compensateGeneration: (sub: string, id: string, error: GenerationError) => Promise<void>;
}

const adapters: ReconcileGenerationPorts = {
  describeExecutionStatus,
  getGeneration,
  setCheckedAt,
  compensateGeneration: (sub, id, error) => compensateGeneration(sub, id, error),
};

/** The error a generation gets when its execution ended with `status` without finishing it. */
export function errorFor(status: string | undefined): GenerationError {
  if (status === 'TIMED_OUT') return { code: 'TIMED_OUT', message: GENERATION_ERROR_MESSAGES.TIMED_OUT };
  if (status === undefined) return { code: 'START_FAILED', message: GENERATION_ERROR_MESSAGES.START_FAILED };
  return { code: 'GENERATION_FAILED', message: GENERATION_ERROR_MESSAGES.GENERATION_FAILED };
}

/**
 * Makes sure a generation that looks stuck is not (docs/architecture.md §4): when it is not terminal and nothing has
 * written to it (nor checked it) for {@link RECONCILE_AFTER_MS}, asks Step Functions about its execution; an
 * execution that ended (TIMED_OUT, ABORTED, FAILED, or SUCCEEDED without finishing the generation) or never existed
 * gets the compensation. Otherwise the generation is left alone and `checkedAt` postpones the next check.
 *
 * @param now epoch ms (tests)
 * @returns the generation as it is after reconciliation
 */
export async function reconcileGeneration(
  record: GenerationRecord & { checkedAt?: string },
  now = Date.now(),
  ports: ReconcileGenerationPorts = adapters,
): Promise<GenerationRecord> {
  if (isTerminal(record.status)) return record;
  const lastSeen = Math.max(
    Date.parse(record.updatedAt),
    record.checkedAt ? Date.parse(record.checkedAt) : 0,
  );
  if (now - lastSeen < RECONCILE_AFTER_MS) return record;
  const status = await ports.describeExecutionStatus(record.id, record.executionArn);
  if (status === 'RUNNING' || status === 'PENDING_REDRIVE') {
    await ports.setCheckedAt(record.userId, record.id, now);
    return record;
  }
  logger.warn('Reconciling a generation whose execution ended without finishing it', {
    generationId: record.id,
    executionStatus: status ?? 'NOT_FOUND',
  });
  await ports.compensateGeneration(record.userId, record.id, errorFor(status));
  return (await ports.getGeneration(record.userId, record.id)) ?? record;
}

/**
 * A generation execution ended FAILED, TIMED_OUT or ABORTED (the EventBridge rule's event): an execution that times
 * out or is stopped never reaches the workflow's own Catch, so its reserved credits are given back at once, by the
 * same idempotent compensation — refund what was not delivered, mark the generation failed. A generation that
 * already ended (or is gone) is left alone.
 *
 * @param status the execution's end (`TIMED_OUT` gets the timeout's message, the others the generic failure's)
 * @returns whether it was compensated
 */
export async function compensateEndedExecution(
  userId: string,
  generationId: string,
  status: 'FAILED' | 'TIMED_OUT' | 'ABORTED',
  ports: Pick<ReconcileGenerationPorts, 'getGeneration' | 'compensateGeneration'> = adapters,
): Promise<boolean> {
  const generation = await ports.getGeneration(userId, generationId);
  if (!generation || isTerminal(generation.status)) return false;
  logger.warn('Compensating a generation whose execution ended early', { generationId, status });
  await ports.compensateGeneration(userId, generationId, errorFor(status));
  return true;
}
