import { fileURLToPath } from 'node:url';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueDefinition } from '../../functions/queue-catalogue';
import { createLambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import type { LocalLog } from '../../infrastructure/local/support/log';
import {
  startEventSourceMapping,
  type EventSourceMapping,
} from '../../infrastructure/local/stand-ins/lambda/event-source-mapping';
import { startSqs, type LocalQueue, type LocalSqs } from '../../infrastructure/local/stand-ins/sqs/fauxqs';
import { HOST } from '../../infrastructure/local/support/ports';
import { consumerLog } from '../fixtures/local-stack/functions/sqs-consumer';

/*
 * The local SQS service (fauxqs) and the Lambda event source mapping stand-in, with test-only queues and a fixture
 * consumer: the event Lambda delivers, batch size, partial batch responses, function errors, redrive to the
 * dead-letter queue, the concurrency cap and a clean stop. No assertion depends on timing.
 */

const fixtures = fileURLToPath(new URL('../fixtures/local-stack/', import.meta.url));
const log: LocalLog = { info: () => undefined, error: () => undefined };
const queue = (name: string, settings: Partial<QueueDefinition> = {}): QueueDefinition => ({
  name,
  consumer: 'sqs-consumer',
  producers: [],
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 5,
  visibilityTimeoutSeconds: 1,
  maxReceiveCount: 2,
  reportBatchItemFailures: true,
  ...settings,
});

let sqs: LocalSqs;
let client: SQSClient;
let mappings: EventSourceMapping[];

beforeAll(async () => {
  const runtime = createLambdaRuntime(
    [{ name: 'sqs-consumer', handler: 'sqs-consumer', timeoutSeconds: 1 }],
    {
      functionsDir: `${fixtures}functions`,
    },
  );
  sqs = await startSqs({
    port: 0,
    host: HOST,
    region: 'us-east-1',
    queues: [
      queue('shape'),
      queue('batches', { batchSize: 3 }),
      queue('partial'),
      queue('whole-batch', { reportBatchItemFailures: false }),
      queue('throws'),
      queue('capped', { batchSize: 1, maxConcurrency: 2 }),
    ],
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    log,
  });
  client = sqs.client;
  mappings = [...sqs.queues.values()].map((q) =>
    startEventSourceMapping({ queue: q, client, runtime, region: 'us-east-1', log }),
  );
});

afterAll(async () => {
  for (const mapping of mappings ?? []) mapping.stop();
  await sqs?.stop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const local = (name: string): LocalQueue => sqs.queues.get(name)!;

/** The consumer's events for `name`, once their records number at least `count`. */
async function eventsOf(name: string, count: number): Promise<SQSEvent[]> {
  for (;;) {
    const events = consumerLog().events.filter((e) => e.Records[0]?.eventSourceARN === local(name).arn);
    if (events.flatMap((e) => e.Records).length >= count) return events;
    await pause(20);
  }
}

async function counts(url: string) {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(Attributes!.ApproximateNumberOfMessages) +
    Number(Attributes!.ApproximateNumberOfMessagesNotVisible)
  );
}

/** Waits until the queue holds no message (visible or in flight): what the mapping deleted is gone. */
async function drained(url: string): Promise<void> {
  while ((await counts(url)) > 0) await pause(50);
}

/** The bodies in the dead-letter queue once it holds `count` messages (received with a 1 s long poll each). */
async function deadLetters(name: string, count: number): Promise<string[]> {
  const bodies: string[] = [];
  while (bodies.length < count) {
    const { Messages } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: local(name).deadLetterUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    bodies.push(...(Messages ?? []).map((m) => m.Body!));
  }
  return bodies;
}

const send = (name: string, bodies: string[]) =>
  client.send(
    new SendMessageBatchCommand({
      QueueUrl: local(name).url,
      Entries: bodies.map((body, i) => ({ Id: String(i), MessageBody: body })),
    }),
  );

describe('local SQS event source mapping', () => {
  it('delivers the SQS event Lambda delivers, then deletes the message', async () => {
    await client.send(
      new SendMessageCommand({
        QueueUrl: local('shape').url,
        MessageBody: '{"wake":true}',
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: 'wake-up' },
          count: { DataType: 'Number', StringValue: '3' },
          blob: { DataType: 'Binary', BinaryValue: Buffer.from('hi') },
        },
      }),
    );
    const [event] = await eventsOf('shape', 1);
    const [record] = event!.Records;
    expect(record).toMatchObject({
      body: '{"wake":true}',
      eventSource: 'aws:sqs',
      eventSourceARN: local('shape').arn,
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {
        kind: { dataType: 'String', stringValue: 'wake-up', stringListValues: [], binaryListValues: [] },
        count: { dataType: 'Number', stringValue: '3' },
        blob: { dataType: 'Binary', binaryValue: Buffer.from('hi').toString('base64') },
      },
    });
    expect(record!.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record!.receiptHandle).toBeTruthy();
    expect(record!.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    expect(record!.md5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(record!.attributes.SentTimestamp)).toBeGreaterThan(0);
    await drained(local('shape').url);
  });

  it('hands out at most batchSize messages per invocation', async () => {
    await send('batches', ['1', '2', '3', '4', '5', '6', '7']);
    const events = await eventsOf('batches', 7);
    for (const event of events) expect(event.Records.length).toBeLessThanOrEqual(3);
    expect(events.flatMap((e) => e.Records.map((r) => r.body)).sort()).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    await drained(local('batches').url);
  });

  it('returns only the reported failures, which reach the dead-letter queue after maxReceiveCount', async () => {
    await send('partial', ['ok', 'fail']);
    expect(await deadLetters('partial', 1)).toEqual(['fail']);
    const bodies = (await eventsOf('partial', 3)).flatMap((e) => e.Records.map((r) => r.body));
    expect(bodies.filter((b) => b === 'ok')).toHaveLength(1);
    expect(bodies.filter((b) => b === 'fail')).toHaveLength(2);
    await drained(local('partial').url);
  });

  it('ignores batchItemFailures without ReportBatchItemFailures: a returned batch is deleted whole', async () => {
    await send('whole-batch', ['ok', 'fail']);
    await eventsOf('whole-batch', 2);
    await drained(local('whole-batch').url);
    expect(await counts(local('whole-batch').deadLetterUrl)).toBe(0);
  });

  it('returns the whole batch on a function error, until the dead-letter queue takes it', async () => {
    await send('throws', ['throw', 'innocent']);
    expect((await deadLetters('throws', 2)).sort()).toEqual(['innocent', 'throw']);
    const events = await eventsOf('throws', 4);
    for (const record of events.flatMap((e) => e.Records)) {
      expect(['1', '2']).toContain(record.attributes.ApproximateReceiveCount);
    }
  });

  it('runs at most maxConcurrency invocations at once', async () => {
    const fixture = consumerLog();
    let open!: () => void;
    fixture.gate = new Promise((resolve) => (open = resolve));
    const arn = local('capped').arn;
    await send('capped', ['a', 'b', 'c', 'd', 'e', 'f']);
    while ((fixture.inFlight[arn] ?? 0) < 2) await pause(20);
    open();
    fixture.gate = undefined;
    await eventsOf('capped', 6);
    await drained(local('capped').url);
    expect(fixture.maxInFlight[arn]).toBe(2);
  });
});
