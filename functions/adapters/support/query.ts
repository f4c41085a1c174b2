import {
  BatchWriteCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import type { TableKey } from '../../domain/gallery';
import { documentClient } from './aws';

/**
 * The table's paging and bulk-delete shapes, written once for every adapter (docs/architecture.md §2): a Query
 * through every `LastEvaluatedKey`, and BatchWriteItem deletes with the retries DynamoDB asks for.
 */

/** DynamoDB BatchWriteItem takes at most 25 requests. */
const BATCH_WRITE_SIZE = 25;

/**
 * The pages of one Query on the table (`TableName` is filled in), following `LastEvaluatedKey` until the last page
 * or until the consumer stops iterating (a `break` reads nothing more).
 */
export async function* queryPages(
  input: Omit<QueryCommandInput, 'TableName'>,
): AsyncGenerator<QueryCommandOutput> {
  let startKey = input.ExclusiveStartKey;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        ...input,
        TableName: storageSettings().TABLE_NAME,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    yield page;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every item of one Query, all pages. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input)) items.push(...(page.Items ?? []));
  return items;
}

/** The table key of an item read with its `PK` and `SK`. */
export const keyOf = (item: Record<string, unknown>): TableKey => ({
  PK: String(item.PK),
  SK: String(item.SK),
});

/**
 * Deletes items by key with BatchWriteItem, 25 per call, sending back whatever DynamoDB leaves in
 * `UnprocessedItems` with capped exponential backoff and full jitter.
 *
 * @throws Error when some items are still unprocessed after 8 tries (a retry of the whole operation finishes it)
 */
export async function batchDelete(keys: readonly TableKey[]): Promise<void> {
  const table = storageSettings().TABLE_NAME;
  for (let i = 0; i < keys.length; i += BATCH_WRITE_SIZE) {
    let requests = keys.slice(i, i + BATCH_WRITE_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      if (attempt > 8)
        throw new Error(`DynamoDB left ${requests.length} delete(s) unprocessed after 8 tries`);
      if (attempt > 1) {
        const capMs = Math.min(2_000, 50 * 2 ** attempt);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * capMs));
      }
      const result = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [table]: requests } }),
      );
      requests = (result.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

/**
 * One conditional UpdateItem on the table (`TableName` is filled in).
 *
 * @returns false when its `ConditionExpression` did not hold (nothing written), true otherwise
 */
export async function updateIf(input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand({ ...input, TableName: storageSettings().TABLE_NAME }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
