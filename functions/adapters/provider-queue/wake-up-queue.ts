import { queueUrlVariable } from '../../queue-catalogue';

/** The dispatcher's wake-up queue in the queue catalogue (functions/queue-catalogue.ts). */
export const WAKE_UP_QUEUE = 'admission-wakeup';

/**
 * The URL of the dispatcher's wake-up queue (`ADMISSION_WAKEUP_QUEUE_URL`, set by the stack for the queue's producers
 * and by the local stack).
 *
 * @throws {Error} when it is not configured
 */
export function wakeUpQueueUrl(): string {
  const variable = queueUrlVariable(WAKE_UP_QUEUE);
  const url = process.env[variable];
  if (!url) throw new Error(`${variable} is not configured`);
  return url;
}
