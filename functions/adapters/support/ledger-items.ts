import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import type { LedgerReason } from '../../domain/credits';
import { ledgerAccount, type AccountRef, type LedgerAccount } from '../../domain/ledger-account';
import { documentClient } from './aws';
import { ledgerRefSk, ledgerSk, PROFILE_SK, TEAM_SK, teamPk, userPk } from './keys';

/*
 * The items every credit change writes in its transaction (docs/architecture.md §2: credits = Σ ledger), shared by
 * the ledger (adapters/ledger.ts), the user's creation (adapters/user-creation.ts) and the purchases and reversals,
 * for a customer's ledger and a team's alike (domain/ledger-account.ts).
 */

/** One item of a `TransactWriteItems`. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;

/** The partition an account's entries, markers, purchases and pending purchases live under. */
export function accountPk(ref: AccountRef): string {
  const account = ledgerAccount(ref);
  return account.kind === 'user' ? userPk(account.sub) : teamPk(account.teamId);
}

/**
 * The item that holds an account's balance and debt, and the balance's attribute: the user item's `credits`, the
 * team item's `balance` (docs/teams.md "Items"). Both keep the debt in `creditsOwed`.
 */
export function accountHead(account: LedgerAccount): {
  Key: { PK: string; SK: string };
  balance: 'credits' | 'balance';
} {
  return account.kind === 'user'
    ? { Key: { PK: userPk(account.sub), SK: PROFILE_SK }, balance: 'credits' }
    : { Key: { PK: teamPk(account.teamId), SK: TEAM_SK }, balance: 'balance' };
}

/** An account's balance and debt, in credits (strongly consistent). */
export interface AccountBalance {
  balance: number;
  creditsOwed: number;
}

/** Reads an account's balance and debt (strongly consistent); `undefined` when its head item does not exist. */
export async function readAccountBalance(ref: AccountRef): Promise<AccountBalance | undefined> {
  const head = accountHead(ledgerAccount(ref));
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: head.Key,
      ConsistentRead: true,
      ProjectionExpression: '#balance, creditsOwed',
      ExpressionAttributeNames: { '#balance': head.balance },
    }),
  );
  if (!Item) return undefined;
  return {
    balance: Number(Item[head.balance] ?? 0),
    creditsOwed: Math.max(0, Number(Item.creditsOwed ?? 0)),
  };
}

/**
 * A `Put` of an item that must be new: the transaction fails (`ConditionalCheckFailed`) when an item with its key
 * exists, which is how a replayed change or a second creation is refused.
 */
export function newItemPut(Item: Record<string, unknown>): TransactItem {
  return { Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(SK)' } };
}

/** The idempotency marker of a credit change: `LEDGERREF#<reason>#<ref>`, new only (a replay is refused). */
export function markerPut(
  owner: AccountRef,
  reason: LedgerReason,
  ref: string,
  entryId: string,
  now: string,
): TransactItem {
  return newItemPut({
    PK: accountPk(owner),
    SK: ledgerRefSk(reason, ref),
    type: 'ledgerRef',
    entryId,
    createdAt: now,
  });
}

/** A ledger entry `LEDGER#<entryId>` with its signed `delta` (credits), `reason` and `ref`. */
export function ledgerPut(
  owner: AccountRef,
  entryId: string,
  delta: number,
  reason: LedgerReason,
  ref: string,
  now: string,
): TransactItem {
  return newItemPut({
    PK: accountPk(owner),
    SK: ledgerSk(entryId),
    type: 'ledger',
    delta,
    reason,
    ref,
    createdAt: now,
  });
}
