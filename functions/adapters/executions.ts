import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';
import {
  GENERATION_ERROR_MESSAGES,
  isTerminal,
  SLOTS,
  type Background,
  type GenerationError,
  type Style,
} from '../domain/generation';
import { logger } from '../common/logger';
import type { TicketPriority } from '../domain/admission';
import { priorityOf } from './admission';
import { documentClient, sfnClient } from './aws';
import { compensateGeneration, getGeneration, type GenerationRecord } from './generations';
import { generationSk, userPk } from './keys';

/**
 * The generation workflow's executions: starting one, and reconciling a generation whose execution ended without
 * the workflow's own compensation having run.
 *
 * Why reconciliation exists: the workflow compensates every failure it can catch (Catch → RefundCredits →
 * MarkFailed), but an execution can also end where no Catch reaches — the machine-level `TimeoutSeconds`
 * (TIMED_OUT), a StopExecution (ABORTED), or a failure of the compensation states themselves (FAILED). The API's
 * `GET /api/generations/{id}`, which the wizard polls, therefore checks the execution of a generation that looks
 * stuck and applies the same idempotent compensation (close, refund every undelivered slot, mark failed): no
 * generation stays running forever and no credit is lost. In the cloud an EventBridge rule on "Step Functions
 * Execution Status Change" can call {@link reconcileGeneration} too, so it also happens when nobody polls.
 */

/** The execution input the ASL reads (`$.generationId`, `$.slots`, `$.maxConcurrency`, …). */
export interface GenerationExecutionInput {
  generationId: string;
  userId: string;
  style: Style;
  background: Background;
  referenceKeys: string[];
  /** The Map's items: `[0, 1, 2, 3, 4, 5]`. */
  slots: readonly number[];
  /** Map `MaxConcurrencyPath`: slots generated at once (config GENERATION_MAX_CONCURRENCY, 1-6). */
  maxConcurrency: number;
  /** The customer's class in the provider's line: `priority` after buying Popular or Pro. */
  priority: TicketPriority;
}

/** The state machine ARN from config. */
function stateMachineArn(): string {
  const arn = loadConfig().STATE_MACHINE_ARN;
  if (!arn) throw new Error('STATE_MACHINE_ARN is not configured');
  return arn;
}

/** The ARN of the execution named `name` of the generation state machine. */
export function executionArnOf(name: string): string {
  return `${stateMachineArn().replace(':stateMachine:', ':execution:')}:${name}`;
}

/**
 * Starts the generation's execution, named after the generation id: StartExecution is idempotent for the same name
 * and input, so the SDK's own retries cannot start two. `slots` defaults to all six; the customer's priority in the
 * provider's line is read from their purchases.
 *
 * @returns the execution ARN
 * @throws the SDK error when Step Functions refuses or cannot be reached (the caller compensates)
 */
export async function startGenerationExecution(
  input: Omit<GenerationExecutionInput, 'slots' | 'maxConcurrency' | 'priority'> & {
    slots?: readonly number[];
  },
): Promise<string> {
  const payload: GenerationExecutionInput = {
    ...input,
    slots: input.slots ?? SLOTS,
    maxConcurrency: loadConfig().GENERATION_MAX_CONCURRENCY,
    priority: await priorityOf(input.userId),
  };
  const { executionArn } = await sfnClient().send(
    new StartExecutionCommand({
      stateMachineArn: stateMachineArn(),
      name: input.generationId,
      input: JSON.stringify(payload),
    }),
  );
  return executionArn ?? executionArnOf(input.generationId);
}

/**
 * How long a generation may go without any write before its execution is checked, in ms. Longer than any one
 * step's silence is not needed: a RUNNING answer only postpones the next check by as much again.
 */
export const RECONCILE_AFTER_MS = 60_000;

/** The compensation reason for an execution that ended in `status` without finishing the generation. */
/** The error a generation gets when its execution ended with `status` without finishing it. */
export function errorFor(status: string | undefined): GenerationError {
  if (status === 'TIMED_OUT') return { code: 'TIMED_OUT', message: GENERATION_ERROR_MESSAGES.TIMED_OUT };
  if (status === undefined) return { code: 'START_FAILED', message: GENERATION_ERROR_MESSAGES.START_FAILED };
  return { code: 'GENERATION_FAILED', message: GENERATION_ERROR_MESSAGES.GENERATION_FAILED };
}

/**
 * Makes sure a generation that looks stuck is not: when it is not terminal and nothing has written to it (nor
 * checked it) for {@link RECONCILE_AFTER_MS}, asks Step Functions about its execution; an execution that ended
 * (TIMED_OUT, ABORTED, FAILED, or SUCCEEDED without finishing the generation) or never existed gets the
 * compensation. Otherwise the generation is left alone and `checkedAt` postpones the next check.
 *
 * @param now epoch ms (tests)
 * @returns the generation as it is after reconciliation
 */
export async function reconcileGeneration(
  record: GenerationRecord & { checkedAt?: string },
  now = Date.now(),
): Promise<GenerationRecord> {
  if (isTerminal(record.status)) return record;
  const lastSeen = Math.max(
    Date.parse(record.updatedAt),
    record.checkedAt ? Date.parse(record.checkedAt) : 0,
  );
  if (now - lastSeen < RECONCILE_AFTER_MS) return record;

  let status: string | undefined;
  try {
    const execution = await sfnClient().send(
      new DescribeExecutionCommand({ executionArn: record.executionArn ?? executionArnOf(record.id) }),
    );
    status = execution.status;
  } catch (error) {
    if ((error as Error).name !== 'ExecutionDoesNotExist') throw error;
  }
  if (status === 'RUNNING' || status === 'PENDING_REDRIVE') {
    await documentClient().send(
      new UpdateCommand({
        TableName: loadConfig().TABLE_NAME,
        Key: { PK: userPk(record.userId), SK: generationSk(record.id) },
        UpdateExpression: 'SET checkedAt = :now',
        ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':now': new Date(now).toISOString() },
      }),
    );
    return record;
  }
  logger.warn('Reconciling a generation whose execution ended without finishing it', {
    generationId: record.id,
    executionStatus: status ?? 'NOT_FOUND',
  });
  await compensateGeneration(record.userId, record.id, errorFor(status));
  return (await getGeneration(record.userId, record.id)) ?? record;
}
