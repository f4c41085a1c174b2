import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import { documentClient } from './aws';
import { queryPages } from './query';

/**
 * Markers of work due at a time, one partition per kind (the sweeper's generation deadlines, retention's headshot
 * expiries): `PK = <partition>`, `SK` starting with the due time in ISO 8601, so the due ones are one key range read in
 * time order with a Query per page of 100 (no Scan; docs/architecture.md §2). Each names a user's generation.
 */
export interface DueMarkerItem {
  PK: string;
  SK: string;
  userId: string;
  generationId: string;
  /** The due time (ISO 8601), from the item's `dueAttribute`. */
  due: string;
}

/**
 * The markers of `partition` due before `cutoff` (ISO 8601), oldest first (strongly consistent); stop iterating to read
 * no more.
 *
 * @param dueAttribute the attribute that holds the due time (`deadline`, `expiry`)
 */
export async function* dueMarkerItems(
  partition: string,
  cutoff: string,
  dueAttribute: string,
): AsyncGenerator<DueMarkerItem> {
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND SK < :cutoff',
    ExpressionAttributeValues: { ':pk': partition, ':cutoff': cutoff },
    ConsistentRead: true,
    Limit: 100,
  })) {
    for (const item of page.Items ?? []) {
      yield {
        PK: String(item.PK),
        SK: String(item.SK),
        userId: String(item.userId),
        generationId: String(item.generationId),
        due: String(item[dueAttribute]),
      };
    }
  }
}

/** Deletes one marker by its key (idempotent: a marker already gone is fine). */
export async function deleteMarkerItem(marker: Pick<DueMarkerItem, 'PK' | 'SK'>): Promise<void> {
  await documentClient().send(
    new DeleteCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: { PK: marker.PK, SK: marker.SK },
    }),
  );
}
