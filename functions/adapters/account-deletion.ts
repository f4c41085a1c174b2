import { GetCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { storageSettings } from '../config/storage';
import { documentClient } from './support/aws';
import { batchDelete, keyOf, queryAll, updateIf as updateItemIf } from './support/query';
import {
  ledgerRefSk,
  ledgerSk,
  PAYMENT_INTENT_SK,
  paymentIntentPk,
  pendingPurchaseSk,
  PROFILE_SK,
  purchaseSk,
  quotaSk,
  userPk,
} from './support/keys';
import { cancellationCodes, transactWrite } from './support/transactions';

/*
 * The table side of "Delete my account" (docs/architecture.md §8 "Privacy"). The user item becomes a tombstone
 * (no e-mail, no name, 0 credits, `deletedAt`) that stops a still-valid token from recreating the account; the
 * accounting — ledger entries, their idempotency markers, purchases, pending purchases — moves to a pseudonymous
 * partition `USER#<pseudonym id>` with its own user item holding the balance, so credits = Σ ledger still holds
 * there and refunds or disputes of old payments (found through the payment-intent lookup) still reverse them.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

const table = () => storageSettings().TABLE_NAME;

/** Sort-key prefixes of the accounting items that move to the pseudonymous partition. */
const ACCOUNTING_PREFIXES = [
  ledgerSk(''),
  ledgerRefSk('', '').slice(0, -1),
  purchaseSk(''),
  pendingPurchaseSk(''),
];
/** Quota counters (`QUOTA#<rule>#<window>`): nothing to keep. */
const QUOTA_PREFIX = `${quotaSk('', 0).split('#')[0]!}#`;
/** Items moved per transaction: a Put and a Delete each, under DynamoDB's 100 actions. */
const MOVE_CHUNK = 50;

/** Commits one transaction, retried when it only lost a race with another one. */
const transact = (items: TransactItem[]) => transactWrite(items);

/** The items of `sub` whose sort key starts with `prefix` (whole items, or only their keys), every page. */
const queryUserPrefix = (sub: string, prefix: string, whole?: 'all') =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': prefix },
    ConsistentRead: true,
    ...(whole ? {} : { ProjectionExpression: 'PK, SK' }),
  });

/** One UpdateItem that may find its condition false (then nothing changes): true when it applied. */
const updateIf = (
  Key: Record<string, string>,
  update: string,
  condition: string,
  values?: Record<string, unknown>,
) =>
  updateItemIf({
    Key,
    UpdateExpression: update,
    ConditionExpression: condition,
    ...(values ? { ExpressionAttributeValues: values } : {}),
  });

const profileKey = (sub: string) => ({ PK: userPk(sub), SK: PROFILE_SK });

/** Where a deletion stands, from the user item. */
export interface AccountDeletionState {
  /** The pseudonymous id the accounting moves to (`anon-<ulid>`, lower case), kept until the deletion ends. */
  pseudonymId: string;
  /** ISO 8601 UTC: when the accounting moved and the profile lost its e-mail; unset while still to do. */
  deletedAt?: string;
}

/**
 * Starts (or resumes) the deletion of `sub`'s account: sets `deletingAt` on the user item — from then on the
 * spend transaction of every new generation fails (adapters/generation-guard.ts conditions on it) — and picks the
 * pseudonymous id, or returns the one an interrupted deletion already picked. Creates a bare user item when there is
 * none, so a still-valid token cannot create a fresh account with the same `sub` later.
 *
 * @returns `undefined` when the account was already deleted completely (nothing left to do)
 */
export async function beginAccountDeletion(
  sub: string,
  now = new Date(),
): Promise<AccountDeletionState | undefined> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: profileKey(sub),
        UpdateExpression:
          'SET deletingAt = if_not_exists(deletingAt, :now), pseudonymId = if_not_exists(pseudonymId, :pseudonym), #type = if_not_exists(#type, :user), credits = if_not_exists(credits, :zero), signupBonus = if_not_exists(signupBonus, :claimed), createdAt = if_not_exists(createdAt, :now)',
        // A finished deletion (tombstone without the pseudonym) is left as it is.
        ConditionExpression: 'attribute_not_exists(deletedAt) OR attribute_exists(pseudonymId)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':pseudonym': `anon-${ulid().toLowerCase()}`,
          ':user': 'user',
          ':zero': 0,
          ':claimed': 'already-claimed',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return {
      pseudonymId: String(Attributes?.pseudonymId),
      ...(typeof Attributes?.deletedAt === 'string' ? { deletedAt: Attributes.deletedAt } : {}),
    };
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** How long a Checkout Session can still be paid after its creation, in ms (Stripe's default expiry: 24 h). */
const CHECKOUT_SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The Checkout Sessions of `sub` that may still be open: those whose pending purchase was recorded less than 24 h
 * before `now` (epoch ms). Stripe's answer decides whether each really is (the caller expires them).
 */
export async function recentCheckoutSessionIds(sub: string, now: number): Promise<string[]> {
  const pending = await queryUserPrefix(sub, pendingPurchaseSk(''), 'all');
  return pending
    .filter((item) => now - Date.parse(String(item.createdAt)) < CHECKOUT_SESSION_LIFETIME_MS)
    .map((item) => String(item.checkoutSessionId));
}

/**
 * Gives the account back when its deletion was refused before anything was removed (a generation still running):
 * removes `deletingAt` and the pseudonymous id, unless the deletion got further meanwhile.
 */
export async function cancelAccountDeletion(sub: string, pseudonymId: string): Promise<void> {
  await updateIf(
    profileKey(sub),
    'REMOVE deletingAt, pseudonymId',
    'pseudonymId = :pseudonym AND attribute_not_exists(deletedAt)',
    { ':pseudonym': pseudonymId },
  );
}

const accountingItems = async (sub: string) =>
  (await Promise.all(ACCOUNTING_PREFIXES.map((prefix) => queryUserPrefix(sub, prefix, 'all')))).flat();

/** Moves items to the pseudonymous partition, each copy and removal in the same transaction (never lost, never twice). */
async function moveItems(items: Item[], pseudonymId: string): Promise<void> {
  for (let i = 0; i < items.length; i += MOVE_CHUNK) {
    await transact(
      items
        .slice(i, i + MOVE_CHUNK)
        .flatMap((item): TransactItem[] => [
          { Put: { TableName: table(), Item: { ...item, PK: userPk(pseudonymId) } } },
          { Delete: { TableName: table(), Key: { PK: item.PK, SK: item.SK } } },
        ]),
    );
  }
  // Refunds and disputes of these payments name only the payment intent: its lookup now points at the pseudonym.
  const purchases = items.filter((item) => String(item.SK).startsWith(purchaseSk('')));
  for (const { paymentIntentId } of purchases) {
    if (typeof paymentIntentId !== 'string') continue;
    await updateIf(
      { PK: paymentIntentPk(paymentIntentId), SK: PAYMENT_INTENT_SK },
      'SET userId = :pseudonym',
      'attribute_exists(PK)',
      { ':pseudonym': pseudonymId },
    );
  }
}

/**
 * Moves `sub`'s accounting to `pseudonymId` and turns the user item into the tombstone, in a way that survives a
 * retry at any point: items move in transactions of copy + delete; then ONE transaction creates the pseudonymous
 * user item with the balance and empties the tombstone (e-mail and name removed, 0 credits, `deletedAt`), on the
 * condition that the balance did not change meanwhile (a webhook crediting a purchase) — else the new ledger entry
 * is moved too and it tries again.
 *
 * @returns the balance moved, in credits
 * @throws {Error} when the balance keeps changing (more than 5 rounds)
 */
export async function moveAccountingToPseudonym(
  sub: string,
  pseudonymId: string,
  now = new Date(),
): Promise<number> {
  for (let round = 0; round < 5; round++) {
    await moveItems(await accountingItems(sub), pseudonymId);
    const { Item: profile } = await documentClient().send(
      new GetCommand({ TableName: table(), Key: profileKey(sub), ConsistentRead: true }),
    );
    if (!profile || typeof profile.deletedAt === 'string') return 0;
    const credits = Number(profile.credits ?? 0);
    const at = now.toISOString();
    // The books' own user item: the balance, and `deletingAt` so a pseudonymous account never starts anything.
    const pseudonymProfile: Item = {
      ...profileKey(pseudonymId),
      type: 'user',
      credits,
      signupBonus: profile.signupBonus ?? 'granted',
      deletingAt: at,
      deletedAt: at,
      createdAt: profile.createdAt ?? at,
      updatedAt: at,
    };
    const tombstone: TransactItem = {
      Update: {
        TableName: table(),
        Key: profileKey(sub),
        UpdateExpression:
          'SET credits = :zero, deletedAt = :now, updatedAt = :now REMOVE email, displayName, lastGenerationId, emailWhenReady',
        ConditionExpression:
          'credits = :credits AND pseudonymId = :pseudonym AND attribute_not_exists(deletedAt)',
        ExpressionAttributeValues: { ':zero': 0, ':now': at, ':credits': credits, ':pseudonym': pseudonymId },
      },
    };
    const create: TransactItem = {
      Put: { TableName: table(), Item: pseudonymProfile, ConditionExpression: 'attribute_not_exists(PK)' },
    };
    try {
      await transact([create, tombstone]);
      return credits;
    } catch (error) {
      if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    }
  }
  throw new Error('The balance kept changing while the account was being deleted');
}

/**
 * Ends the deletion: removes the quota counters and forgets the pseudonymous id, so nothing links the two
 * partitions any more. (A purchase credited after the move stays on the tombstone with its ledger entry, so
 * credits = Σ ledger holds on both.)
 */
export async function finishAccountDeletion(sub: string): Promise<void> {
  const quotas = await queryUserPrefix(sub, QUOTA_PREFIX);
  await batchDelete(quotas.map(keyOf));
  await updateIf(profileKey(sub), 'REMOVE pseudonymId', 'attribute_exists(deletedAt)');
}
