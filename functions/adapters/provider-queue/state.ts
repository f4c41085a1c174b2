import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { initialQueueState, type QueueState } from '../../domain/provider-queue';
import { documentClient } from '../support/aws';
import { queueLimits, queuePk, STATE_SK, table } from './settings';
import { countCapacity } from './usage';

/**
 * The provider queue's state item (docs/architecture.md §4, domain/provider-queue.ts `QueueState`): the bucket's
 * tokens, the permits in flight, a 429's pause and the measured call durations, in ONE item of fixed size.
 */

/**
 * Reads the queue's state; a fresh one when it does not exist yet.
 *
 * @param consistent a strongly consistent read (the dispatcher's); eventually consistent (estimates only) otherwise
 */
export async function readState(consistent = false): Promise<QueueState> {
  const { Item, ConsumedCapacity } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: queuePk('STATE'), SK: STATE_SK },
      ConsistentRead: consistent,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity('state', 'read', ConsumedCapacity);
  if (!Item) return initialQueueState(queueLimits(), Date.now());
  const { PK: _pk, SK: _sk, ...state } = Item;
  return { ...initialQueueState(queueLimits(), Date.now()), ...(state as Partial<QueueState>) };
}
