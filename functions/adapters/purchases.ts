import { GetCommand, PutCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import type { ExpectedPurchase } from '../domain/checkout';
import type { AccountRef } from '../domain/ledger-account';
import type { SeatPurchaseFields } from '../domain/team-checkout';
import { documentClient } from './support/aws';
import { accountPk } from './support/ledger-items';
import { PAYMENT_INTENT_SK, paymentIntentPk, pendingPurchaseSk, purchaseSk } from './support/keys';

/**
 * Pending purchases and payment-intent lookups (docs/architecture.md §8 "Money"), of a customer's ledger
 * (`USER#<sub>`) or a team's (`TEAM#<teamId>`, its seat purchases: docs/teams.md "Items"), named by an
 * {@link AccountRef} (a string is a customer's `sub`):
 *
 * - `USER#<sub>` / `PENDING_PURCHASE#<sessionId>`: pack, price (cents), credits and currency when the Checkout
 *   Session was created; fulfilment checks the paid session against it. Kept 90 days (`expiresAt`), long after a
 *   session (24 h) can still be paid.
 * - `USER#<sub>` / `PURCHASE#<sessionId>`: the purchase of a fulfilled session (docs/architecture.md §2), put in the
 *   fulfilment transaction and listed newest first by the purchase history.
 * - `PAYMENT_INTENT#<pi>` / `PAYMENT_INTENT`: the buyer and Checkout Session of a payment intent, written in the
 *   fulfilment transaction, so `charge.refunded` and `charge.dispute.created` (which name only the payment) find the
 *   purchase to reverse.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;
const PENDING_DAYS = 90;

/** Records what a new Checkout Session sells. Idempotent (a replayed creation writes the same values). */
export async function putPendingPurchase(
  owner: AccountRef,
  checkoutSessionId: string,
  expected: ExpectedPurchase,
  now = new Date(),
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: accountPk(owner),
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
  owner: AccountRef,
  checkoutSessionId: string,
): Promise<ExpectedPurchase | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: accountPk(owner), SK: pendingPurchaseSk(checkoutSessionId) },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    packId: String(Item.packId),
    credits: Number(Item.credits),
    priceCents: Number(Item.priceCents),
    currency: String(Item.currency),
    ...(typeof Item.quantity === 'number' ? { quantity: Item.quantity } : {}),
    ...(typeof Item.buyerSub === 'string' ? { buyerSub: Item.buyerSub } : {}),
  };
}

/**
 * The lookup item of a payment intent, for the fulfilment transaction (new, or the same purchase's on a replay): the
 * buyer's `sub`, and for a team's seat purchase the team whose ledger it filled (`teamId`).
 */
export function paymentIntentLookupPut(
  paymentIntentId: string,
  sub: string,
  checkoutSessionId: string,
  teamId?: string,
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
        ...(teamId === undefined ? {} : { teamId }),
      },
      ConditionExpression: 'attribute_not_exists(PK) OR checkoutSessionId = :session',
      ExpressionAttributeValues: { ':session': checkoutSessionId },
    },
  };
}

/** What a payment intent paid for: its buyer, Checkout Session and, for a seat purchase, the team (docs/teams.md). */
export interface PaymentIntentLookup {
  sub: string;
  checkoutSessionId: string;
  /** Present for a team's seat purchase: the purchase is under `TEAM#<teamId>` (domain/ledger-account.ts). */
  teamId?: string;
}

/** What a payment intent paid for, or `undefined` when it is not (yet) fulfilled here. */
export async function findPaymentIntent(paymentIntentId: string): Promise<PaymentIntentLookup | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: paymentIntentPk(paymentIntentId), SK: PAYMENT_INTENT_SK },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    sub: String(Item.userId),
    checkoutSessionId: String(Item.checkoutSessionId),
    ...(typeof Item.teamId === 'string' ? { teamId: Item.teamId } : {}),
  };
}

/**
 * The purchase item (docs/architecture.md §2): `PK USER#<sub>` (or `TEAM#<teamId>` for seats), `SK
 * PURCHASE#<checkoutSessionId>`.
 */
export interface PurchaseRecord {
  checkoutSessionId: string;
  packId: string;
  credits: number;
  /** Cents actually charged (after any promotion code). */
  amountTotal: number;
  /** ISO 4217, lower case (`usd`). */
  currency: string;
  paymentIntentId: string | undefined;
  /** `completed`, then `refunded` / `disputed` once a reversal took credits back. */
  status: 'completed' | 'refunded' | 'disputed';
  /** Credits taken back by refunds and disputes so far (never more than `credits`). */
  creditsReversed: number;
  /** Cents of the charge refunded, as the last refund event applied said (failed refunds subtracted). */
  amountRefunded: number;
  /** When the last refund failure applied was announced (event `created`, epoch seconds); 0 if none failed. */
  refundsAsOf: number;
  /** Refunds (`re_…`) that failed and whose credits were given back: each is given back once. */
  failedRefunds: string[];
  /** The dispute (`dp_…`) and where it stands, once one was opened. */
  disputeId?: string;
  disputeStatus?: 'open' | 'won' | 'lost';
  /** The charge's `receipt_url` at fulfilment (Stripe keeps it current with refunds); null without a charge. */
  receiptUrl: string | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** A team's seat purchase (docs/teams.md "Money"): the seats, and the owner or admin who paid. */
  team?: SeatPurchaseFields;
}

/** A purchase item as read from the table (`PK USER#<sub>`, `SK PURCHASE#<checkoutSessionId>`). */
export function purchaseRecordOf(sessionId: string, Item: Record<string, unknown>): PurchaseRecord {
  return {
    checkoutSessionId: sessionId,
    packId: String(Item.packId),
    credits: Number(Item.credits),
    amountTotal: Number(Item.amountTotal),
    currency: String(Item.currency),
    paymentIntentId: Item.paymentIntentId === undefined ? undefined : String(Item.paymentIntentId),
    status: (Item.status as PurchaseRecord['status'] | undefined) ?? 'completed',
    creditsReversed: Number(Item.creditsReversed ?? 0),
    amountRefunded: Number(Item.amountRefunded ?? 0),
    refundsAsOf: Number(Item.refundsAsOf ?? 0),
    failedRefunds: Item.failedRefunds instanceof Set ? [...(Item.failedRefunds as Set<string>)] : [],
    ...(typeof Item.disputeId === 'string' ? { disputeId: Item.disputeId } : {}),
    ...(Item.disputeStatus === 'open' || Item.disputeStatus === 'won' || Item.disputeStatus === 'lost'
      ? { disputeStatus: Item.disputeStatus }
      : {}),
    receiptUrl: typeof Item.receiptUrl === 'string' ? Item.receiptUrl : null,
    createdAt: String(Item.createdAt),
    ...(typeof Item.seats === 'number'
      ? {
          team: {
            seats: Item.seats,
            buyerSub: String(Item.buyerSub ?? ''),
            buyerEmail: String(Item.buyerEmail ?? ''),
          },
        }
      : {}),
  };
}

const PURCHASE_PREFIX = purchaseSk('');

/**
 * Every purchase of an account (`PK USER#<sub>` or `TEAM#<teamId>`, `SK` beginning with `PURCHASE#`), following
 * `LastEvaluatedKey` until the Query ends: the history needs them all to order them by time
 * (domain/purchase-history.ts). Eventually consistent, like any list.
 */
export async function readAllPurchases(owner: AccountRef): Promise<PurchaseRecord[]> {
  const purchases: PurchaseRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': accountPk(owner), ':prefix': PURCHASE_PREFIX },
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

/** The purchase of a session, or `undefined` (strongly consistent read). */
export async function getPurchase(owner: AccountRef, sessionId: string): Promise<PurchaseRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: { PK: accountPk(owner), SK: purchaseSk(sessionId) },
      ConsistentRead: true,
    }),
  );
  return Item ? purchaseRecordOf(sessionId, Item) : undefined;
}

/**
 * The purchase item of a fulfilled session (status `completed`, nothing reversed yet), with PK/SK, for the ledger
 * transaction that grants its credits (`grantCredits({ related: { item } })`), so both exist or neither does. A seat
 * purchase's `team` fields are stored flat (`seats`, `buyerSub`, `buyerEmail`), as docs/teams.md "Items" lists them.
 */
export function purchaseItem(
  owner: AccountRef,
  purchase: Omit<
    PurchaseRecord,
    | 'status'
    | 'creditsReversed'
    | 'createdAt'
    | 'amountRefunded'
    | 'refundsAsOf'
    | 'failedRefunds'
    | 'disputeId'
    | 'disputeStatus'
  >,
): Record<string, unknown> {
  const { team, ...fields } = purchase;
  return {
    PK: accountPk(owner),
    SK: purchaseSk(purchase.checkoutSessionId),
    type: 'purchase',
    ...fields,
    ...team,
    status: 'completed',
    creditsReversed: 0,
    createdAt: new Date().toISOString(),
  };
}
