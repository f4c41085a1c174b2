import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import type { LambdaRuntime } from './runtime';
import type { LocalLog } from '../../support/log';
import type { LocalQueue } from '../sqs/fauxqs';
import { failedMessageIds, sqsEvent, sqsRecord } from './sqs-events';

/*
 * Lambda's event source mapping for SQS, locally: long-polls a queue and invokes its consumer through the local
 * Lambda runtime with batches in the shape Lambda delivers, as the cloud mapping the CDK construct creates from the
 * same queue catalogue (functions/queue-catalogue.ts) would (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html):
 * - a batch is at most `batchSize` messages; with a batching window Lambda keeps receiving until the batch is full,
 *   the window has passed since the first message, or the payload nears Lambda's 6 MB;
 * - at most `maxConcurrency` invocations run at once (`ScalingConfig.MaximumConcurrency`);
 * - an invocation that returns deletes its batch — with `reportBatchItemFailures`, all but the messages it names in
 *   `batchItemFailures`; a function error deletes nothing. What is not deleted is received again after the visibility
 *   timeout, and SQS moves it to the dead-letter queue after `maxReceiveCount` receives (fauxqs does the redrive).
 */

/** ReceiveMessage's longest wait, which Lambda's pollers use. */
const LONG_POLL_SECONDS = 20;
/** Lambda's synchronous invocation payload limit; a batch stops growing before it. */
const MAX_BATCH_BYTES = 6_291_456;
/** Wait before polling again after the queue could not be read. */
const RETRY_AFTER_ERROR_MS = 1_000;

/** A running mapping. */
export interface EventSourceMapping {
  /** Stops polling: the pending long poll is cancelled at once; running invocations finish in the background. */
  stop(): void;
}

/** Starts polling `queue` for its consumer; see the module comment for the rules. */
export function startEventSourceMapping(options: {
  queue: LocalQueue;
  client: SQSClient;
  runtime: LambdaRuntime;
  region: string;
  log: LocalLog;
}): EventSourceMapping {
  const { queue, client, runtime, region, log } = options;
  const { definition } = queue;
  const abort = new AbortController();
  let inFlight = 0;
  let slotFreed: (() => void) | undefined;
  const label = `${definition.name} → ${definition.consumer}`;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  async function receive(max: number, waitSeconds: number): Promise<Message[]> {
    const { Messages } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: Math.min(10, max),
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    return Messages ?? [];
  }

  /** One batch: long-polls for a first message, then fills the batch within the batching window. */
  async function collectBatch(): Promise<Message[]> {
    const batch = await receive(definition.batchSize, LONG_POLL_SECONDS);
    if (batch.length === 0 || definition.maxBatchingWindowSeconds === 0) return batch;
    const windowEnds = Date.now() + definition.maxBatchingWindowSeconds * 1000;
    let bytes = batch.reduce((sum, m) => sum + Buffer.byteLength(m.Body ?? ''), 0);
    while (batch.length < definition.batchSize && bytes < MAX_BATCH_BYTES && !abort.signal.aborted) {
      const remainingMs = windowEnds - Date.now();
      if (remainingMs <= 0) break;
      const more = await receive(definition.batchSize - batch.length, Math.floor(remainingMs / 1000));
      if (more.length === 0 && remainingMs < 1000) await sleep(Math.min(remainingMs, 100));
      batch.push(...more);
      bytes += more.reduce((sum, m) => sum + Buffer.byteLength(m.Body ?? ''), 0);
    }
    return batch;
  }

  async function deleteMessages(records: SQSRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += 10) {
      const entries = records
        .slice(i, i + 10)
        .map((r, n) => ({ Id: String(n), ReceiptHandle: r.receiptHandle }));
      const { Failed } = await client.send(
        new DeleteMessageBatchCommand({ QueueUrl: queue.url, Entries: entries }),
      );
      for (const failure of Failed ?? [])
        log.error(`${label}: delete failed: ${failure.Code} ${failure.Message}`);
    }
  }

  async function process(batch: Message[]): Promise<void> {
    const event = sqsEvent(batch.map((m) => sqsRecord(m, queue.arn, region)));
    let failed: Set<string>;
    try {
      const result = await runtime.invoke(definition.consumer, event);
      failed = new Set(definition.reportBatchItemFailures ? failedMessageIds(event, result) : []);
      if (failed.size > 0) log.error(`${label}: ${failed.size} of ${batch.length} messages reported failed`);
    } catch (error) {
      // A function error leaves the whole batch to reappear after the visibility timeout.
      log.error(
        `${label}: invocation failed, ${batch.length} messages return to the queue: ${String(error)}`,
      );
      return;
    }
    const done = event.Records.filter((r) => !failed.has(r.messageId));
    if (done.length > 0 && !abort.signal.aborted) await deleteMessages(done);
  }

  async function poll(): Promise<void> {
    while (!abort.signal.aborted) {
      if (inFlight >= definition.maxConcurrency) {
        await new Promise<void>((resolve) => (slotFreed = resolve));
        continue;
      }
      let batch: Message[];
      try {
        batch = await collectBatch();
      } catch (error) {
        if (abort.signal.aborted) return;
        log.error(`${label}: cannot read the queue: ${String(error)}`);
        await sleep(RETRY_AFTER_ERROR_MS);
        continue;
      }
      if (batch.length === 0) continue;
      inFlight++;
      void process(batch)
        .catch((error: unknown) => {
          if (!abort.signal.aborted) log.error(`${label}: ${String(error)}`);
        })
        .finally(() => {
          inFlight--;
          slotFreed?.();
          slotFreed = undefined;
        });
    }
  }

  void poll();
  return {
    stop() {
      abort.abort();
      slotFreed?.();
    },
  };
}
