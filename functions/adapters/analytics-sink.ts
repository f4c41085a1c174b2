import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { analyticsSettings } from '../config/analytics';
import { runtimeSettings } from '../config/runtime';
import { onConfigReset } from '../config/settings';
import {
  partitionDate,
  toServerRecord,
  type AnalyticsEventName,
  type AnalyticsRecord,
} from '../domain/analytics';
import { logger } from '../common/logger';
import { awsClient } from './support/aws';

/**
 * Where analytics records go (docs/architecture.md, "Analytics"): Amazon Data Firehose when `ANALYTICS_STREAM_NAME`
 * is set (the cloud: Firehose → S3 partitioned by date → Glue table), else JSON lines appended to
 * `<ANALYTICS_DIR>/<YYYY-MM-DD>.jsonl` (the local stack: `.local/analytics/`). With neither, records are dropped
 * with a debug line.
 */

/** Firehose accepts at most 500 records per PutRecordBatch. */
const FIREHOSE_BATCH = 500;

let firehose: FirehoseClient | undefined;
onConfigReset(() => (firehose = undefined));
const firehoseClient = () =>
  (firehose ??= awsClient(new FirehoseClient({ region: runtimeSettings().AWS_REGION })));

/** Thrown when Firehose refused some records even after one retry of just those. */
export class AnalyticsDeliveryError extends Error {
  override readonly name = 'AnalyticsDeliveryError';
}

async function putToFirehose(stream: string, records: AnalyticsRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += FIREHOSE_BATCH) {
    let pending = records.slice(i, i + FIREHOSE_BATCH);
    // PutRecordBatch is not all-or-nothing: resend only the failed entries, once.
    for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
      const result = await firehoseClient().send(
        new PutRecordBatchCommand({
          DeliveryStreamName: stream,
          Records: pending.map((r) => ({ Data: Buffer.from(`${JSON.stringify(r)}\n`) })),
        }),
      );
      if (!result.FailedPutCount) return;
      pending = pending.filter((_, j) => result.RequestResponses?.[j]?.ErrorCode);
    }
    if (pending.length > 0)
      throw new AnalyticsDeliveryError(`Firehose refused ${pending.length} analytics records`);
  }
}

async function appendToFiles(dir: string, records: AnalyticsRecord[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const byDate = new Map<string, string[]>();
  for (const r of records) {
    const date = partitionDate(r);
    byDate.set(date, [...(byDate.get(date) ?? []), JSON.stringify(r)]);
  }
  // One appendFile per file: each batch lands as whole lines even with concurrent requests.
  for (const [date, lines] of byDate) await appendFile(join(dir, `${date}.jsonl`), `${lines.join('\n')}\n`);
}

/**
 * Stores records in the configured sink.
 *
 * @throws {AnalyticsDeliveryError} when Firehose refuses records; SDK and file-system errors as thrown
 */
export async function recordAnalytics(records: AnalyticsRecord[]): Promise<void> {
  if (records.length === 0) return;
  const { ANALYTICS_STREAM_NAME, ANALYTICS_DIR } = analyticsSettings();
  if (ANALYTICS_STREAM_NAME) return putToFirehose(ANALYTICS_STREAM_NAME, records);
  if (ANALYTICS_DIR) return appendToFiles(ANALYTICS_DIR, records);
  logger.debug('No analytics sink configured; records dropped', { count: records.length });
}

/**
 * Records an event the server emits for `sub` (e.g. `purchase_completed` at fulfilment). Never throws: analytics
 * must not fail a purchase, so a delivery problem is logged and forgotten.
 */
export async function trackServerEvent(
  name: AnalyticsEventName,
  sub: string,
  props: Record<string, string | number | boolean> = {},
): Promise<void> {
  try {
    await recordAnalytics([toServerRecord(name, sub, props, new Date())]);
  } catch (error) {
    logger.warn('Could not record a server analytics event', { event: name, error: error as Error });
  }
}
