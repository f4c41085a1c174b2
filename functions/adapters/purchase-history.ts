import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { documentClient } from './support/aws';
import { userPk } from './support/keys';
import { purchaseRecordOf, type PurchaseRecord } from './purchases';

const PURCHASE_PREFIX = 'PURCHASE#';

/**
 * Every purchase of `sub` (`PK USER#<sub>`, `SK` beginning with `PURCHASE#`), following `LastEvaluatedKey` until the
 * Query ends: the history needs them all to order them by time (domain/purchase-history.ts). Eventually consistent,
 * like any list.
 */
export async function readAllPurchases(sub: string): Promise<PurchaseRecord[]> {
  const purchases: PurchaseRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: storageSettings().TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': PURCHASE_PREFIX },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      purchases.push(purchaseRecordOf(String(item.SK).slice(PURCHASE_PREFIX.length), item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return purchases;
}
