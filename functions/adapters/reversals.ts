import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { ledgerAccount, type AccountRef } from '../domain/ledger-account';
import { documentClient } from './support/aws';
import { purchaseSk } from './support/keys';
import { accountHead, accountPk } from './support/ledger-items';
import { cancellationCodes, withTransactionRetry } from './support/transactions';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;

/**
 * A purchase's reversal state or the account's balance changed since they were read (another event, a spend): the
 * write was refused and changed nothing, so the caller reads again and decides again.
 */
export class PurchaseChangedError extends Error {
  override readonly name = 'PurchaseChangedError';
  constructor() {
    super('The purchase or the balance changed meanwhile');
  }
}

/** Commits a reversal's own transaction; a refused condition is a {@link PurchaseChangedError}. */
async function commit(items: TransactItem[]): Promise<void> {
  try {
    await withTransactionRetry(() =>
      documentClient().send(new TransactWriteCommand({ TransactItems: items })),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict'))
      throw new PurchaseChangedError();
    throw error;
  }
}

/** What else a reversal or restoration records on the purchase, in the same update. */
export interface PurchaseStateChange {
  /** Cents of the charge refunded from now on. */
  amountRefunded?: number;
  /** A refund failure's event time (epoch seconds): `charge.refunded` deliveries no newer than it are stale. */
  refundsAsOf?: number;
  disputeId?: string;
  disputeStatus?: 'open' | 'won' | 'lost';
  /** A failed refund given back by this change: added to `failedRefunds`, and the update requires it absent. */
  failedRefund?: string;
}

/**
 * The transaction item that moves a purchase from `prev` to `target` reversed credits (and its `status`), with the
 * state that decided it ({@link PurchaseStateChange}), only if nobody moved it meanwhile — so two events can never
 * both apply.
 */
export function purchaseReversalUpdate(
  owner: AccountRef,
  sessionId: string,
  prev: number,
  target: number,
  status: string,
  change: PurchaseStateChange = {},
): TransactItem {
  const { failedRefund, ...fields } = change;
  const sets = ['creditsReversed = :target', '#status = :status', 'reversedAt = :now'];
  const values: Record<string, unknown> = {
    ':target': target,
    ':prev': prev,
    ':zero': 0,
    ':status': status,
    ':now': new Date().toISOString(),
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    sets.push(`${name} = :${name}`);
    values[`:${name}`] = value;
  }
  if (failedRefund) values[':failedRefund'] = new Set([failedRefund]);
  return {
    Update: {
      TableName: table(),
      Key: { PK: accountPk(owner), SK: purchaseSk(sessionId) },
      UpdateExpression: `SET ${sets.join(', ')}${failedRefund ? ' ADD failedRefunds :failedRefund' : ''}`,
      ConditionExpression:
        'attribute_exists(SK) AND (creditsReversed = :prev OR (attribute_not_exists(creditsReversed) AND :prev = :zero))' +
        (failedRefund ? ' AND NOT contains(failedRefunds, :failedRefundId)' : ''),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: failedRefund ? { ...values, ':failedRefundId': failedRefund } : values,
    },
  };
}

/**
 * The purchase's state change alone (a restoration that gives nothing back, e.g. a lost dispute), in its own write.
 *
 * @throws {PurchaseChangedError} when the purchase moved since it was read
 */
export async function writePurchaseState(update: TransactItem): Promise<void> {
  await commit([update]);
}

const FLAG_SET =
  'flaggedAt = :flaggedAt, flagReason = :flagReason, creditsOwed = if_not_exists(creditsOwed, :zeroOwed) + :owed';
const flagValues = (owed: number) => ({
  ':flaggedAt': new Date().toISOString(),
  ':flagReason': 'reversal-exceeds-balance',
  ':zeroOwed': 0,
  ':owed': owed,
});

/**
 * The `profileGuard` of a reversal larger than the balance: the account (the user item, or a team's item) is flagged
 * for `owed` credits.
 */
export function shortfallFlag(owed: number) {
  return { condition: 'attribute_exists(PK)', set: FLAG_SET, values: flagValues(owed) };
}

/**
 * A reversal the balance cannot cover at all (it is 0): the purchase's update and the account's flag
 * (`flaggedAt`, `flagReason`, `creditsOwed`) in one transaction, conditional on the balance still being 0.
 *
 * @param owner a customer's `sub` or any account (a team's: its `balance`, docs/teams.md "Money")
 * @throws {PurchaseChangedError} when the purchase moved or the balance is no longer 0
 */
export async function flagUncoveredReversal(
  owner: AccountRef,
  update: TransactItem,
  owed: number,
): Promise<void> {
  const head = accountHead(ledgerAccount(owner));
  await commit([
    update,
    {
      Update: {
        TableName: table(),
        Key: head.Key,
        UpdateExpression: `SET ${FLAG_SET}`,
        ConditionExpression: 'attribute_exists(PK) AND #balance = :zeroOwed',
        ExpressionAttributeNames: { '#balance': head.balance },
        ExpressionAttributeValues: flagValues(owed),
      },
    },
  ]);
}
