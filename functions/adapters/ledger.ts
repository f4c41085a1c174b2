import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { storageSettings } from '../config/storage';
import {
  assertCreditAmount,
  InsufficientCreditsError,
  settlement,
  UserNotFoundError,
  type LedgerReason,
} from '../domain/credits';
import { ledgerAccount, type AccountRef, type LedgerAccount } from '../domain/ledger-account';
import { TeamNotFoundError } from '../domain/team-errors';
import { documentClient } from './support/aws';
import { getUser, type UserRecord } from './support/users';
import {
  accountHead,
  accountPk,
  ledgerPut,
  markerPut,
  readAccountBalance,
  type AccountBalance,
  type TransactItem,
} from './support/ledger-items';
import { queryAll } from './support/query';
import { cancellationCodes, withTransactionRetry } from './support/transactions';

/** One ledger entry (`LEDGER#<ulid>`): a signed credit delta, why, and the reference it belongs to. */
export interface LedgerEntry {
  id: string;
  delta: number;
  reason: LedgerReason;
  ref: string;
  createdAt: string;
}

/** An item written in the same transaction as a credit change (the purchase or generation it belongs to). */
export interface RelatedItem {
  /** The full item, including `PK` and `SK` (which must be under the account's partition). */
  item: Record<string, unknown>;
  /** Defaults to `attribute_not_exists(SK)`: the related item is new. */
  conditionExpression?: string;
}

/**
 * Whose ledger a credit change moves: a customer's (`sub`, as every change before teams) or any account
 * (domain/ledger-account.ts: a team's for a seat purchase, a team generation and their refunds).
 */
export type CreditChangeAccount =
  { sub: string; account?: undefined } | { account: LedgerAccount; sub?: undefined };

/** A credit change request (see {@link CreditChangeAccount} for whose). */
export type CreditChange = CreditChangeAccount & CreditChangeFields;

/** What a credit change moves, whoever's ledger it is. */
export interface CreditChangeFields {
  /** Credits, a positive whole number; the sign comes from the operation. */
  amount: number;
  /**
   * The idempotency reference: the checkout session id (purchase), generation id (spend), generation id + slot
   * (refund). The same reason + ref applied again changes nothing.
   */
  ref: string;
  related?: RelatedItem;
  /**
   * An extra condition (ANDed) and SET clauses on the account's head item (the user item, or the team item), in the
   * same transaction: e.g. "no generation in flight" and "no account deletion in progress" for a spend. Its names and
   * values must not clash with the ledger's own (`#balance`, `:delta`, `:now`, `:amount`, `:owedSeen`, `:owedAfter`).
   */
  profileGuard?: ProfileGuard;
  /** More items committed in the same transaction (a quota counter, a ConditionCheck on another item). */
  extraItems?: TransactItem[];
}

/** See {@link CreditChange.profileGuard}. */
export interface ProfileGuard {
  /** A condition expression on the user item, e.g. `attribute_not_exists(deletingAt)`. */
  condition: string;
  /** Extra `SET` clauses without the keyword, e.g. `lastGenerationId = :generationId`. */
  set?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/**
 * A credit change was refused by its {@link CreditChange.profileGuard} or one of its `extraItems` (not by the
 * balance): the caller knows what its guard meant and maps it to its own error.
 */
export class CreditChangeGuardError extends Error {
  override readonly name = 'CreditChangeGuardError';
  constructor(
    /** `profile` when the head item's guard failed, else the index in `extraItems` of the first failed item. */
    readonly failed: 'profile' | number,
    /** The user item after the failure (strongly consistent read); `undefined` for a team's ledger. */
    readonly user: UserRecord | undefined,
  ) {
    super(`Credit change refused by its guard (${String(failed)})`);
  }
}

/** Outcome of a credit change. */
export interface CreditChangeResult {
  /** False when this reason + ref had already been applied: nothing changed. */
  applied: boolean;
  /** The balance after the call, in credits. */
  balance: number;
}

/** Thrown when the related item of a credit change already exists (a conflicting write, not a replay). */
export class RelatedItemConflictError extends Error {
  override readonly name = 'RelatedItemConflictError';
}

const table = () => storageSettings().TABLE_NAME;

// The user item's reading is shared plumbing (adapters/support/users.ts); re-exported for the ledger's callers.
export { getUser, type UserRecord };
// Any account's balance and debt (adapters/support/ledger-items.ts), for the reversals' use cases.
export { readAccountBalance, type AccountBalance };

/** The account a change moves. */
export function accountOf(change: CreditChangeAccount): LedgerAccount {
  return change.account ?? ledgerAccount(change.sub);
}

/**
 * One attempt of a credit change. A change that gives credits (`sign` 1) first pays what the account owes
 * (`creditsOwed`, left by a reversal its balance could not cover: docs/architecture.md §2): `owed` is what the caller
 * believes is owed, checked in the same transaction (`creditsOwed = :owedSeen`), so a concurrent change of the debt
 * fails the attempt and {@link applyChange} tries again with the value read.
 */
async function attemptChange(
  change: CreditChange,
  reason: LedgerReason,
  sign: 1 | -1,
  owed: number,
): Promise<CreditChangeResult> {
  const { amount, ref, related, profileGuard, extraItems = [] } = change;
  const account = accountOf(change);
  const head = accountHead(account);
  const spend = sign === -1;
  const settle = spend ? 0 : settlement(owed, amount);
  const delta = sign * amount - settle;
  return withTransactionRetry(async () => {
    const now = new Date().toISOString();
    const entryId = ulid();
    const sets = [
      '#balance = #balance + :delta',
      'updatedAt = :now',
      ...(settle > 0 ? ['creditsOwed = :owedAfter'] : []),
      ...(profileGuard?.set ? [profileGuard.set] : []),
    ];
    const items: TransactItem[] = [
      {
        Update: {
          TableName: table(),
          Key: head.Key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: [
            'attribute_exists(PK)',
            ...(spend ? ['#balance >= :amount'] : []),
            ...(spend ? [] : ['(attribute_not_exists(creditsOwed) OR creditsOwed = :owedSeen)']),
            ...(profileGuard ? [`(${profileGuard.condition})`] : []),
          ].join(' AND '),
          ExpressionAttributeNames: { '#balance': head.balance, ...profileGuard?.names },
          ExpressionAttributeValues: {
            ':delta': delta,
            ':now': now,
            ...(spend ? { ':amount': amount } : { ':owedSeen': owed }),
            ...(settle > 0 ? { ':owedAfter': owed - settle } : {}),
            ...profileGuard?.values,
          },
        },
      },
      markerPut(account, reason, ref, entryId, now),
      ledgerPut(account, entryId, sign * amount, reason, ref, now),
    ];
    if (related) {
      items.push({
        Put: {
          TableName: table(),
          Item: related.item,
          ConditionExpression: related.conditionExpression ?? 'attribute_not_exists(SK)',
        },
      });
    }
    items.push(...extraItems);
    // Last, so the indices of the items above (and the callers' extraItems) stay as they are.
    if (settle > 0)
      items.push(ledgerPut(account, ulid(), -settle, 'debt_settlement', `${reason}#${ref}`, now));
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return { applied: true, balance: (await readAccountBalance(account))?.balance ?? 0 };
  });
}

/** The account's head after a refused change: the user item (its guard's callers read it), or the team's balance. */
async function headAfter(account: LedgerAccount): Promise<{
  user: UserRecord | undefined;
  balance: AccountBalance | undefined;
}> {
  if (account.kind === 'user') {
    const user = await getUser(account.sub);
    return { user, balance: user && { balance: user.credits, creditsOwed: user.creditsOwed } };
  }
  return { user: undefined, balance: await readAccountBalance(account) };
}

async function applyChange(
  change: CreditChange,
  reason: LedgerReason,
  sign: 1 | -1,
): Promise<CreditChangeResult> {
  assertCreditAmount(change.amount);
  const { amount, related, profileGuard } = change;
  const account = accountOf(change);
  if (related && related.item.PK !== accountPk(account))
    throw new Error("A related item must belong to the account's partition");
  const spend = sign === -1;
  // Most accounts owe nothing: the first attempt assumes so, and reads the debt only when the condition says otherwise.
  let owed = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptChange(change, reason, sign, owed);
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      const [balanceCode, markerCode] = codes;
      const relatedCode = related ? codes[3] : undefined;
      const first = related ? 4 : 3;
      const extraCodes = codes.slice(first, first + (change.extraItems?.length ?? 0));
      const { user, balance } = await headAfter(account);
      if (markerCode === 'ConditionalCheckFailed') return { applied: false, balance: balance?.balance ?? 0 };
      if (balanceCode === 'ConditionalCheckFailed') {
        if (!balance) throw account.kind === 'user' ? new UserNotFoundError() : new TeamNotFoundError();
        if (!spend && balance.creditsOwed !== owed && attempt < 8) {
          owed = balance.creditsOwed;
          continue;
        }
        if (spend && balance.balance < amount) throw new InsufficientCreditsError(balance.balance, amount);
        if (profileGuard) throw new CreditChangeGuardError('profile', user);
        throw new InsufficientCreditsError(balance.balance, amount);
      }
      const failedExtra = extraCodes.indexOf('ConditionalCheckFailed');
      if (failedExtra >= 0) throw new CreditChangeGuardError(failedExtra, user);
      if (relatedCode === 'ConditionalCheckFailed') {
        throw new RelatedItemConflictError(`The ${String(related?.item.SK)} item already exists`);
      }
      throw error;
    }
  }
}

/**
 * Adds credits (a purchase), in one transaction with its ledger entry and, when given, the related item (the
 * purchase). Idempotent by `ref`.
 *
 * @throws {UserNotFoundError} when the user item does not exist.
 * @throws {RelatedItemConflictError} when the related item already exists under another ref.
 */
export function grantCredits(change: CreditChange): Promise<CreditChangeResult> {
  return applyChange(change, 'purchase', 1);
}

/**
 * Spends credits (a generation), conditioned on `credits >= amount`, in one transaction with its ledger entry and,
 * when given, the related item (the generation). Idempotent by `ref`.
 *
 * @throws {InsufficientCreditsError} ('Insufficient credits') when the balance is lower than `amount`.
 * @throws {UserNotFoundError} when the user item does not exist.
 */
export function spendCredits(change: CreditChange): Promise<CreditChangeResult> {
  return applyChange(change, 'generation', -1);
}

/**
 * Gives back credits of a generation that did not deliver (one per missing headshot). Idempotent by `ref`
 * (generation id + slot), so a retried or replayed refund never pays twice.
 *
 * @throws {UserNotFoundError} when the user item does not exist.
 */
export function refundCredits(change: CreditChange): Promise<CreditChangeResult> {
  return applyChange(change, 'refund', 1);
}

/**
 * Takes back credits of a purchase whose payment was refunded or disputed (reason `reversal`), conditioned on
 * `credits >= amount` so the balance never goes below 0 (the caller takes at most the balance and flags the rest).
 * Idempotent by `ref`.
 *
 * @throws {InsufficientCreditsError} when the balance dropped below `amount` meanwhile (read again and retry)
 * @throws {CreditChangeGuardError} when a guard or extra item (the purchase's own condition) refused
 */
export function reverseCredits(change: CreditChange): Promise<CreditChangeResult> {
  return applyChange(change, 'reversal', -1);
}

/**
 * Gives back credits a reversal took, once the reason for it went away — a dispute won, a refund that failed
 * (reason `reversal_restored`) — paying what the account owes first, like every receipt. Idempotent by `ref`.
 *
 * @throws {UserNotFoundError} when the user item does not exist
 * @throws {CreditChangeGuardError} when an extra item (the purchase's own condition) refused
 */
export function restoreCredits(change: CreditChange): Promise<CreditChangeResult> {
  return applyChange(change, 'reversal_restored', 1);
}

/**
 * An account's ledger, newest first (all pages): a customer's (`sub`) or a team's. For audits and tests of the
 * invariant balance = Σ deltas.
 */
export async function listLedger(owner: AccountRef): Promise<LedgerEntry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': accountPk(owner), ':prefix': 'LEDGER#' },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return items.map((item) => ({
    id: String(item.SK).slice('LEDGER#'.length),
    delta: Number(item.delta),
    reason: item.reason as LedgerReason,
    ref: String(item.ref),
    createdAt: String(item.createdAt),
  }));
}
