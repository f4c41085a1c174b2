/**
 * THE queue catalogue: every SQS queue of Headshot Studio, declared once, with the function a Lambda event source
 * mapping feeds its messages to and the functions that send to it. The CDK stack creates each queue (SSE, TLS only)
 * with its dead-letter queue and an alarm on it, the event source mapping and the grants
 * (infrastructure/constructs/queues.ts); the local stack creates the same queues on fauxqs and polls them with the
 * same settings (infrastructure/local/stand-ins/lambda/event-source-mapping.ts) (docs/architecture.md §5).
 *
 * A producer finds a queue's URL in the environment variable {@link queueUrlVariable} names
 * (`admission-wakeup` → `ADMISSION_WAKEUP_QUEUE_URL`).
 */

/** One standard SQS queue and the event source mapping that drains it. */
export interface QueueDefinition {
  /**
   * Letters, digits, `-`, `_`; at most 76 characters (SQS allows 80 and the dead-letter queue adds `-dlq`). The
   * local queue's name; CDK derives construct ids from it (the cloud names carry the stack's prefix).
   */
  name: string;
  /** The function catalogue name of the function the event source mapping invokes with batches of messages. */
  consumer: string;
  /** Function catalogue names of the functions that send to the queue: each gets `sqs:SendMessage` and the URL. */
  producers: readonly string[];
  /**
   * Messages per invocation, 1-10,000 (Lambda's limit for a standard queue); above 10 needs a batching window of at
   * least 1 s (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-parameters.html).
   */
  batchSize: number;
  /** Seconds Lambda may wait to fill a batch, 0-300 (`MaximumBatchingWindowInSeconds`). */
  maxBatchingWindowSeconds: number;
  /** Most concurrent invocations the mapping makes, 2-1,000 (`ScalingConfig.MaximumConcurrency`). */
  maxConcurrency: number;
  /**
   * Seconds a received message stays hidden before it is handed out again, 0-43,200; at least the consumer's timeout
   * (Lambda refuses the mapping otherwise; AWS recommends 6× the timeout plus the batching window).
   */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue, 1-1,000 (`RedrivePolicy.maxReceiveCount`). */
  maxReceiveCount: number;
  /**
   * The consumer answers `{ batchItemFailures: [{ itemIdentifier: messageId }] }` and only those messages return to
   * the queue (`FunctionResponseTypes: ['ReportBatchItemFailures']`); without it a failed invocation returns the
   * whole batch.
   */
  reportBatchItemFailures: boolean;
}

/** The queues of the product. */
export const queues: readonly QueueDefinition[] = [
  {
    // Nudges for the provider queue's dispatcher (docs/architecture.md §4, docs/decisions/010-provider-queue.md):
    // "a slot entered the line", "a permit came back", "the next token is due" (delayed), "the reaper's tick". Every
    // batch runs one dispatch, whatever it holds, so duplicates cost nothing; at most 2 at once (Lambda's minimum for
    // a capped mapping), which the gate item's version condition makes safe.
    name: 'admission-wakeup',
    consumer: 'provider-dispatcher',
    producers: [
      'generation-enter-provider-line',
      'generation-call-provider',
      'generation-release-provider-slot',
      'provider-dispatcher',
      'provider-lease-reaper',
    ],
    batchSize: 10,
    maxBatchingWindowSeconds: 0,
    maxConcurrency: 2,
    // AWS recommends 6 × the consumer's timeout (60 s); a failed dispatch's nudge returns after it, and the reaper
    // wakes the dispatcher every minute meanwhile.
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 5,
    reportBatchItemFailures: false,
  },
];

/** The environment variable holding a queue's URL: `admission-wakeup` → `ADMISSION_WAKEUP_QUEUE_URL`. */
export function queueUrlVariable(name: string): string {
  return `${name.replace(/[-]/g, '_').toUpperCase()}_QUEUE_URL`;
}

/** The name of a queue's dead-letter queue. */
export const deadLetterQueueName = (name: string) => `${name}-dlq`;

/**
 * Checks `list` against SQS's and Lambda's limits and against the functions that exist, as CloudFormation and the
 * Lambda API would refuse it, so a bad entry fails `npm start`, the tests and `cdk synth` alike.
 *
 * @param functions each function's catalogue name and timeout in seconds
 * @throws {Error} naming the queue and the rule it breaks
 */
export function validateQueues(
  list: readonly QueueDefinition[],
  functions: ReadonlyMap<string, { timeoutSeconds: number }>,
): void {
  const seen = new Set<string>();
  for (const q of list) {
    const fail = (rule: string) => {
      throw new Error(`Queue "${q.name}": ${rule}`);
    };
    if (!/^[A-Za-z0-9_-]{1,76}$/.test(q.name)) fail('the name must be 1-76 letters, digits, - or _');
    if (seen.has(q.name)) fail('declared twice');
    seen.add(q.name);
    const consumer = functions.get(q.consumer);
    if (!consumer) fail(`no function "${q.consumer}" to consume it`);
    for (const p of q.producers) if (!functions.has(p)) fail(`no producer function "${p}"`);
    const whole = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
    if (!whole(q.batchSize, 1, 10_000)) fail('batchSize must be 1-10000');
    if (!whole(q.maxBatchingWindowSeconds, 0, 300)) fail('maxBatchingWindowSeconds must be 0-300');
    if (q.batchSize > 10 && q.maxBatchingWindowSeconds < 1) {
      fail('a batchSize above 10 needs maxBatchingWindowSeconds of at least 1');
    }
    if (!whole(q.maxConcurrency, 2, 1000)) fail('maxConcurrency must be 2-1000');
    if (!whole(q.visibilityTimeoutSeconds, 0, 43_200)) fail('visibilityTimeoutSeconds must be 0-43200');
    if (!whole(q.maxReceiveCount, 1, 1000)) fail('maxReceiveCount must be 1-1000');
    // Lambda's CreateEventSourceMapping: "Queue visibility timeout: 30 seconds is less than Function timeout: 60
    // seconds" (InvalidParameterValueException).
    if (consumer && q.visibilityTimeoutSeconds < consumer.timeoutSeconds) {
      fail(
        `visibility timeout ${q.visibilityTimeoutSeconds} s is less than ${q.consumer}'s timeout ${consumer.timeoutSeconds} s`,
      );
    }
  }
}
