import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { generationSettings } from '../config/generation';
import { SLOTS } from '../domain/slots';
import { type Background, type Style } from '../domain/styles';
import { sfnClient } from './support/aws';

/**
 * The generation workflow's executions: starting one, and asking how one ended (for the reconciliation,
 * functions/use-cases/reconcile-generation.ts).
 *
 * Why reconciliation exists: the workflow compensates every failure it can catch (Catch → RefundCredits →
 * MarkFailed), but an execution can also end where no Catch reaches — the machine-level `TimeoutSeconds`
 * (TIMED_OUT), a StopExecution (ABORTED), or a failure of the compensation states themselves (FAILED). The API's
 * `GET /api/generations/{id}`, which the wizard polls, therefore checks the execution of a generation that looks
 * stuck and applies the same idempotent compensation (close, refund every undelivered slot, mark failed): no
 * generation stays running forever and no credit is lost. In the cloud an EventBridge rule on "Step Functions
 * Execution Status Change" compensates too, so it also happens when nobody polls.
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
  /**
   * The longest a slot may wait in the provider line, in whole seconds (EnterLine's `TimeoutSecondsPath`): the
   * generation deadline (GENERATION_DEADLINE_MINUTES). The customer's class in the line is looked up as each slot
   * enters it, so a refund or a dispute since the start counts.
   */
  admissionWaitSeconds: number;
}

/** The state machine ARN from config. */
function stateMachineArn(): string {
  const arn = generationSettings().STATE_MACHINE_ARN;
  if (!arn) throw new Error('STATE_MACHINE_ARN is not configured');
  return arn;
}

/** The ARN of the execution named `name` of the generation state machine. */
export function executionArnOf(name: string): string {
  return `${stateMachineArn().replace(':stateMachine:', ':execution:')}:${name}`;
}

/**
 * Starts the generation's execution, named after the generation id: StartExecution is idempotent for the same name
 * and input, so the SDK's own retries cannot start two. `slots` defaults to all six.
 *
 * @returns the execution ARN
 * @throws the SDK error when Step Functions refuses or cannot be reached (the caller compensates)
 */
export async function startGenerationExecution(
  input: Omit<GenerationExecutionInput, 'slots' | 'maxConcurrency' | 'admissionWaitSeconds'> & {
    slots?: readonly number[];
  },
): Promise<string> {
  const payload: GenerationExecutionInput = {
    ...input,
    slots: input.slots ?? SLOTS,
    maxConcurrency: generationSettings().GENERATION_MAX_CONCURRENCY,
    admissionWaitSeconds: Math.max(1, Math.ceil(generationSettings().GENERATION_DEADLINE_MINUTES * 60)),
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
 * The status of the generation's execution (`RUNNING`, `SUCCEEDED`, `FAILED`, `TIMED_OUT`, `ABORTED`,
 * `PENDING_REDRIVE`), or `undefined` when Step Functions has no such execution.
 *
 * @param executionArn the recorded ARN, else derived from the generation id
 */
export async function describeExecutionStatus(
  generationId: string,
  executionArn?: string,
): Promise<string | undefined> {
  try {
    const execution = await sfnClient().send(
      new DescribeExecutionCommand({ executionArn: executionArn ?? executionArnOf(generationId) }),
    );
    return execution.status;
  } catch (error) {
    if ((error as Error).name !== 'ExecutionDoesNotExist') throw error;
    return undefined;
  }
}
