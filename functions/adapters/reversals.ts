import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { documentClient } from './aws';
import { PROFILE_SK, purchaseSk, userPk } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;

/**
 * The transaction item that moves a purchase from `prev` to `target` reversed credits (and its `status` to
 * `refunded` or `disputed`), only if nobody moved it meanwhile — so two events can never both apply.
 */
export function purchaseReversalUpdate(
  sub: string,
  sessionId: string,
  prev: number,
  target: number,
  status: string,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: { PK: userPk(sub), SK: purchaseSk(sessionId) },
      UpdateExpression: 'SET creditsReversed = :target, #status = :status, reversedAt = :now',
      ConditionExpression:
        'attribute_exists(SK) AND (creditsReversed = :prev OR (attribute_not_exists(creditsReversed) AND :prev = :zero))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':target': target,
        ':prev': prev,
        ':zero': 0,
        ':status': status,
        ':now': new Date().toISOString(),
      },
    },
  };
}

const FLAG_SET =
  'flaggedAt = :flaggedAt, flagReason = :flagReason, creditsOwed = if_not_exists(creditsOwed, :zeroOwed) + :owed';
const flagValues = (owed: number) => ({
  ':flaggedAt': new Date().toISOString(),
  ':flagReason': 'reversal-exceeds-balance',
  ':zeroOwed': 0,
  ':owed': owed,
});

/** The `profileGuard` of a reversal larger than the balance: the account is flagged for `owed` credits. */
export function shortfallFlag(owed: number) {
  return { condition: 'attribute_exists(PK)', set: FLAG_SET, values: flagValues(owed) };
}

/**
 * A reversal the balance cannot cover at all (it is 0): the purchase's update and the account's flag
 * (`flaggedAt`, `flagReason`, `creditsOwed`) in one transaction, conditional on the balance still being 0.
 */
export async function flagUncoveredReversal(sub: string, update: TransactItem, owed: number): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        update,
        {
          Update: {
            TableName: table(),
            Key: { PK: userPk(sub), SK: PROFILE_SK },
            UpdateExpression: `SET ${FLAG_SET}`,
            ConditionExpression: 'attribute_exists(PK) AND credits = :zeroOwed',
            ExpressionAttributeValues: flagValues(owed),
          },
        },
      ],
    }),
  );
}
