import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

/*
 * The SQS event Lambda's event source mapping delivers, and how it reads the function's partial batch response
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html, "Example standard queue message event";
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html, "Reporting batch item failures").
 */

/** A message attribute as Lambda writes it into a record: camelCase, the list fields always present. */
function recordAttribute(value: MessageAttributeValue): SQSMessageAttributes[string] {
  return {
    dataType: value.DataType ?? 'String',
    ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
    ...(value.BinaryValue === undefined
      ? {}
      : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
  };
}

/**
 * One received message as a record of the event: `messageId`, `receiptHandle`, `body`, the system `attributes`
 * (`ApproximateReceiveCount`, `SentTimestamp`, `SenderId`, `ApproximateFirstReceiveTimestamp`), the
 * `messageAttributes`, `md5OfBody` (and `md5OfMessageAttributes` when there are attributes), `eventSource`
 * `aws:sqs`, the queue's ARN and the region.
 *
 * @param message as ReceiveMessage returned it with `MessageSystemAttributeNames: ['All']` and
 *   `MessageAttributeNames: ['All']`
 */
export function sqsRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const system = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: system.ApproximateReceiveCount ?? '1',
      SentTimestamp: system.SentTimestamp ?? String(Date.now()),
      SenderId: system.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name, recordAttribute(value)]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes === undefined
      ? {}
      : { md5OfMessageAttributes: message.MD5OfMessageAttributes }),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/** The event for a batch of records. */
export const sqsEvent = (records: SQSRecord[]): SQSEvent => ({ Records: records });

/**
 * The message ids of `event` that go back to the queue after the function returned `result`, with
 * `ReportBatchItemFailures` on. Lambda's rules: no response, `null`, `{}`, or an empty or `null`
 * `batchItemFailures` is complete success (none); a response that is not that shape, or an item whose
 * `itemIdentifier` is missing, empty, not a string or not a message id of the batch, fails the whole batch.
 */
export function failedMessageIds(event: SQSEvent, result: unknown): string[] {
  const all = event.Records.map((r) => r.messageId);
  if (result === null || result === undefined) return [];
  if (typeof result !== 'object' || Array.isArray(result)) return all;
  const failures = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return [];
  if (!Array.isArray(failures)) return all;
  const ids = new Set(all);
  const failed = new Set<string>();
  for (const item of failures as unknown[]) {
    const id = (item as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || id === '' || !ids.has(id)) return all;
    failed.add(id);
  }
  return [...failed];
}
