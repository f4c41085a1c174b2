import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { queuePk, STATE_SK } from '../../functions/adapters/provider-queue/settings';
import { storageSettings } from '../../functions/config/storage';

/*
 * The provider queue's items in DynamoDB Local, as the queue's integration tests read and seed them: the tickets in
 * line, the count of calls in flight, and the leases (functions/adapters/provider-queue/).
 */

const table = () => storageSettings().TABLE_NAME;

/** The tickets of one generation waiting in line (its slots that have not been admitted). */
export async function lineOf(generationId: string): Promise<Record<string, unknown>[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'generationId = :g',
      ExpressionAttributeValues: { ':pk': queuePk('LINE'), ':g': generationId },
    }),
  );
  return result.Items ?? [];
}

/** Takes one generation's tickets out of the line, so a test leaves none behind for the next one's dispatcher. */
export async function clearLine(generationId: string): Promise<void> {
  for (const ticket of await lineOf(generationId)) {
    await documentClient().send(
      new DeleteCommand({ TableName: table(), Key: { PK: ticket.PK, SK: ticket.SK } }),
    );
  }
}

/** How many provider calls hold a permit now (the queue state's `inFlight`; 0 before the first admission). */
export async function inFlight(): Promise<number> {
  const state = await documentClient().send(
    new GetCommand({ TableName: table(), Key: { PK: queuePk('STATE'), SK: STATE_SK } }),
  );
  return Number(state.Item?.inFlight ?? 0);
}

/** The lease item `lease` (a `leaseId`), or `undefined` once it is released or reclaimed. */
export async function leaseItem(lease: string): Promise<Record<string, unknown> | undefined> {
  return (
    await documentClient().send(
      new GetCommand({ TableName: table(), Key: { PK: queuePk('LEASE'), SK: lease } }),
    )
  ).Item;
}

/**
 * Seeds a lease as the gate grants one: the lease item for `taskToken`, granted at `grantedAt` (ms since the epoch)
 * and held for 600 s, and its permit counted in `inFlight`.
 */
export async function holdLease(lease: string, taskToken: string, grantedAt: number): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: { PK: queuePk('LEASE'), SK: lease, taskToken, grantedAt, leaseUntil: grantedAt + 600_000 },
    }),
  );
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { PK: queuePk('STATE'), SK: STATE_SK },
      UpdateExpression: 'ADD inFlight :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}
