import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import {
  deadLetterQueueName,
  queueUrlVariable,
  type QueueDefinition,
} from '../../../../functions/queue-catalogue';
import type { LocalLog } from '../../support/log';

/*
 * Amazon SQS, locally: fauxqs (MIT, https://github.com/kibertoad/fauxqs), an SQS emulator speaking the AWS JSON
 * protocol the SDK v3 uses, with long polling, visibility timeouts and dead-letter redrive. Its queues are the ones
 * of the queue catalogue (functions/queue-catalogue.ts), made through the real CreateQueue API with the attributes the CDK
 * construct gives them. State is in memory, like the Step Functions executions whose slots the queues serve.
 */

/** A queue of the catalogue as created locally. */
export interface LocalQueue {
  definition: QueueDefinition;
  url: string;
  arn: string;
  deadLetterUrl: string;
  deadLetterArn: string;
}

/** The running local SQS service. */
export interface LocalSqs {
  /** `http://127.0.0.1:<port>`: what `AWS_ENDPOINT_URL_SQS` points at. */
  endpoint: string;
  /** By queue name. */
  queues: ReadonlyMap<string, LocalQueue>;
  /** `{ <NAME>_QUEUE_URL: url }` for every queue: the handlers' environment. */
  env: Record<string, string>;
  /** Credentials-and-region-configured client for the local stack's own use (pollers, tests). */
  client: SQSClient;
  /** Stops the server; fauxqs ends every pending long poll first (its preClose hook). */
  stop(): Promise<void>;
}

/** 14 days, SQS's maximum retention: what the dead-letter queues keep, so a failed message waits to be looked at. */
export const DEAD_LETTER_RETENTION_SECONDS = 1_209_600;

/**
 * Starts fauxqs on `host:port` (loopback: its own `startFauxqs` binds every interface) and creates each queue of
 * `queues` with its dead-letter queue: `VisibilityTimeout` and a `RedrivePolicy` of `maxReceiveCount` to
 * `<name>-dlq`, as the CDK construct does.
 *
 * @throws {Error} (rejects) when the port cannot be bound or a queue cannot be created
 */
export async function startSqs(options: {
  port: number;
  host: string;
  region: string;
  queues: readonly QueueDefinition[];
  credentials: { accessKeyId: string; secretAccessKey: string };
  log: LocalLog;
}): Promise<LocalSqs> {
  const { port, host, region, log } = options;
  const app = buildApp({ logger: false, defaultRegion: region });
  await app.listen({ port, host });
  const address = app.server.address();
  const endpoint = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
  const client = new SQSClient({ region, endpoint, credentials: options.credentials });
  try {
    const queues = new Map<string, LocalQueue>();
    for (const definition of options.queues) {
      const deadLetter = await createQueue(client, deadLetterQueueName(definition.name), {
        MessageRetentionPeriod: String(DEAD_LETTER_RETENTION_SECONDS),
      });
      const queue = await createQueue(client, definition.name, {
        VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: deadLetter.arn,
          maxReceiveCount: definition.maxReceiveCount,
        }),
      });
      queues.set(definition.name, {
        definition,
        url: queue.url,
        arn: queue.arn,
        deadLetterUrl: deadLetter.url,
        deadLetterArn: deadLetter.arn,
      });
    }
    const env = Object.fromEntries(
      [...queues.values()].map((q) => [queueUrlVariable(q.definition.name), q.url]),
    );
    log.info(`SQS (fauxqs) on ${endpoint}: ${[...queues.keys()].join(', ') || 'no queues'}`);
    return {
      endpoint,
      queues,
      env,
      client,
      async stop() {
        client.destroy();
        await app.close();
      },
    };
  } catch (error) {
    client.destroy();
    await app.close();
    throw error;
  }
}

async function createQueue(client: SQSClient, name: string, attributes: Record<string, string>) {
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  return { url: QueueUrl!, arn: Attributes!.QueueArn! };
}
