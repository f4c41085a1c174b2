import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueUrlVariable, validateQueues, type QueueDefinition } from '../../functions/queue-catalogue';
import type { DeployedFunction } from './functions';
import { pascalCase } from './naming';
import { topicAlarms } from './topic-alarms';

/** Properties of {@link Queues}. */
export interface QueuesProps {
  /** The queue catalogue (`functions/queue-catalogue.ts`). */
  queues: readonly QueueDefinition[];
  /** The deployed functions: consumers and producers are found by catalogue name. */
  functions: readonly DeployedFunction[];
  /** Where the dead-letter alarms go. */
  topic: sns.ITopic;
}

/** One queue as deployed. */
export interface DeployedQueue {
  definition: QueueDefinition;
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
  mapping: SqsEventSource;
}

/** Dead-letter queues keep a message 14 days (SQS's maximum), time to look at it and redrive it. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * Every queue of the queue catalogue, as the local stack runs it on fauxqs (docs/architecture.md §5):
 * - the queue, encrypted at rest (SSE-SQS) and refusing requests without TLS (`enforceSSL`), with its visibility
 *   timeout and a dead-letter queue after `maxReceiveCount` receives;
 * - the Lambda event source mapping to its consumer: batch size, batching window, `ScalingConfig.MaximumConcurrency`
 *   and `ReportBatchItemFailures`; the consumer is granted consume (receive, delete, change visibility, attributes);
 * - each producer is granted `sqs:SendMessage` and gets the URL as `<NAME>_QUEUE_URL`;
 * - an alarm as soon as one message waits in the dead-letter queue.
 *
 * @throws {Error} at synth for an entry SQS or Lambda would refuse (`validateQueues`), or whose consumer or producer
 *   is not a deployed function.
 */
export class Queues extends Construct {
  readonly deployed = new Map<string, DeployedQueue>();
  /** The dead-letter alarms, one per queue. */
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    const functions = new Map(
      props.functions.map(({ entry, fn }) => [entry.name, { entry, fn: fn.function }]),
    );
    validateQueues(
      props.queues,
      new Map([...functions].map(([name, { entry }]) => [name, { timeoutSeconds: entry.timeoutSeconds }])),
    );
    const alarm = topicAlarms(this, props.topic, this.alarms);
    for (const definition of props.queues) {
      const id = pascalCase(definition.name);
      const deadLetterQueue = new sqs.Queue(this, `${id}DeadLetters`, {
        retentionPeriod: DEAD_LETTER_RETENTION,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new sqs.Queue(this, id, {
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
      });
      const mapping = new SqsEventSource(queue, {
        batchSize: definition.batchSize,
        maxBatchingWindow:
          definition.maxBatchingWindowSeconds > 0
            ? Duration.seconds(definition.maxBatchingWindowSeconds)
            : undefined,
        maxConcurrency: definition.maxConcurrency,
        reportBatchItemFailures: definition.reportBatchItemFailures,
      });
      // Grants the consumer consume on the queue (SqsEventSource.bind).
      functions.get(definition.consumer)!.fn.addEventSource(mapping);
      for (const producer of definition.producers) {
        const { fn } = functions.get(producer)!;
        queue.grantSendMessages(fn);
        fn.addEnvironment(queueUrlVariable(definition.name), queue.queueUrl);
      }
      alarm(`${id}DeadLettersVisible`, {
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 1,
        alarmDescription: `A message of the ${definition.name} queue failed ${definition.maxReceiveCount} times and is in its dead-letter queue: look at it (and at ${definition.consumer}'s log), then redrive it.`,
      });
      this.deployed.set(definition.name, { definition, queue, deadLetterQueue, mapping });
    }
  }
}
