import { SendTaskFailureCommand, SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sfnClient, sqsClient } from '../support/aws';
import { countEvent } from './usage';
import { wakeUpQueueUrl } from './wake-up-queue';

/**
 * The provider queue's two outside calls: resuming a waiting Task (Step Functions `SendTaskSuccess` /
 * `SendTaskFailure` with its task token) and waking the dispatcher (an SQS message on the wake-up queue).
 */

/**
 * The errors Step Functions answers for a token whose Task no longer waits: it timed out, its execution ended, or
 * the token was never valid (https://docs.aws.amazon.com/step-functions/latest/apireference/API_SendTaskSuccess.html).
 */
const GONE = new Set(['TaskDoesNotExist', 'TaskTimedOut', 'InvalidToken']);

/** Whether an error of a task-token call means the Task no longer waits. */
export function isGoneToken(error: unknown): boolean {
  return GONE.has((error as Error | undefined)?.name ?? '');
}

/**
 * Resumes a waiting slot with its lease: the Task's output is `{ leaseId }`.
 *
 * @returns `false` when the Task no longer waits (its lease must be given back at once)
 * @throws the SDK's error for anything else (the dispatcher's Lambda fails and SQS delivers the wake-up again)
 */
export async function resumeAdmitted(taskToken: string, leaseId: string): Promise<boolean> {
  countEvent('callbacks');
  try {
    await sfnClient().send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify({ leaseId }) }));
    return true;
  } catch (error) {
    if (isGoneToken(error)) return false;
    throw error;
  }
}

/**
 * Ends a waiting slot with `AdmissionDeadline` (the generation's deadline passed): the ASL's Catch refunds it. A Task
 * that no longer waits is left alone.
 */
export async function failPastDeadline(taskToken: string, generationId: string): Promise<void> {
  countEvent('callbacks');
  try {
    await sfnClient().send(
      new SendTaskFailureCommand({
        taskToken,
        error: 'AdmissionDeadline',
        cause: `Generation ${generationId} passed its deadline before this slot was admitted`,
      }),
    );
  } catch (error) {
    if (!isGoneToken(error)) throw error;
  }
}

/**
 * Ends a waiting slot with `AdmissionRefused` (the table refused to admit its ticket, which was set aside): the ASL's
 * Catch refunds it, as for `AdmissionDeadline`. A Task that no longer waits is left alone.
 */
export async function failRefusedAdmission(taskToken: string, generationId: string): Promise<void> {
  countEvent('callbacks');
  try {
    await sfnClient().send(
      new SendTaskFailureCommand({
        taskToken,
        error: 'AdmissionRefused',
        cause: `A slot of generation ${generationId} could not be admitted: its ticket was set aside`,
      }),
    );
  } catch (error) {
    if (!isGoneToken(error)) throw error;
  }
}

/**
 * Wakes the dispatcher: one message on the wake-up queue, delivered after `delaySeconds` (0-900, SQS's
 * `DelaySeconds`). Messages are only nudges — the dispatcher reads the queue itself — so duplicates and order do not
 * matter.
 */
export async function wakeDispatcher(reason: string, delaySeconds = 0): Promise<void> {
  countEvent('wakeUps');
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: wakeUpQueueUrl(),
      MessageBody: JSON.stringify({ reason }),
      DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
    }),
  );
}
