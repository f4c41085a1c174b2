import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';

/**
 * Every item of the user partition `USER#<sub>` whose sort key starts with `prefix` (e.g. `PURCHASE#`,
 * `GENERATION#`), read consistently from the table the handlers use (`TABLE_NAME`).
 */
export async function userItems(sub: string, prefix: string): Promise<Record<string, unknown>[]> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${sub}`, ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}
