import { GetCommand, PutCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';
import type { ExpectedPurchase } from '../domain/checkout';
import { documentClient } from './aws';
import { PAYMENT_INTENT_SK, paymentIntentPk, pendingPurchaseSk, userPk } from './keys';

/**
 * Pending purchases and payment-intent lookups (docs/architecture.md §8 "Money"):
 *
 * - `USER#<sub>` / `PENDING_PURCHASE#<sessionId>`: pack, price (cents), credits and currency when the Checkout
 *   Session was created; fulfilment checks the paid session against it. Kept 90 days (`expiresAt`), long after a
 *   session (24 h) can still be paid.
 * - `PAYMENT_INTENT#<pi>` / `PAYMENT_INTENT`: the buyer and Checkout Session of a payment intent, written in the
 *   fulfilment transaction, so `charge.refunded` and `charge.dispute.created` (which name only the payment) find the
 *   purchase to reverse.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => loadConfig().TABLE_NAME;
const PENDING_DAYS = 90;

/** Records what a new Checkout Session sells. Idempotent (a replayed creation writes the same values). */
export async function putPendingPurchase(
  sub: string,
  checkoutSessionId: string,
  expected: ExpectedPurchase,
  now = new Date(),
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: userPk(sub),
        SK: pendingPurchaseSk(checkoutSessionId),
        type: 'pendingPurchase',
        checkoutSessionId,
        ...expected,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + PENDING_DAYS * 86_400,
      },
    }),
  );
}

/** The pending purchase of a session, or `undefined` (a session created before they existed, or elsewhere). */
export async function getPendingPurchase(
  sub: string,
  checkoutSessionId: string,
): Promise<ExpectedPurchase | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: pendingPurchaseSk(checkoutSessionId) },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    packId: String(Item.packId),
    credits: Number(Item.credits),
    priceCents: Number(Item.priceCents),
    currency: String(Item.currency),
  };
}

/** The lookup item of a payment intent, for the fulfilment transaction (new, or the same purchase's on a replay). */
export function paymentIntentLookupPut(
  paymentIntentId: string,
  sub: string,
  checkoutSessionId: string,
): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: {
        PK: paymentIntentPk(paymentIntentId),
        SK: PAYMENT_INTENT_SK,
        type: 'paymentIntent',
        userId: sub,
        checkoutSessionId,
      },
      ConditionExpression: 'attribute_not_exists(PK) OR checkoutSessionId = :session',
      ExpressionAttributeValues: { ':session': checkoutSessionId },
    },
  };
}

/** The buyer and Checkout Session a payment intent paid for, or `undefined` when it is not (yet) fulfilled here. */
export async function findPaymentIntent(
  paymentIntentId: string,
): Promise<{ sub: string; checkoutSessionId: string } | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: paymentIntentPk(paymentIntentId), SK: PAYMENT_INTENT_SK },
      ConsistentRead: true,
    }),
  );
  return Item ? { sub: String(Item.userId), checkoutSessionId: String(Item.checkoutSessionId) } : undefined;
}
