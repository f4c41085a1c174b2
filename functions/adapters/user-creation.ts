import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { storageSettings } from '../config/storage';
import { displayNameFromEmail, SIGNUP_BONUS_CREDITS, UserNotFoundError } from '../domain/credits';
import { isDisposableAddress } from '../domain/disposable-addresses';
import { bonusKey, legacyBonusKey, previousBonusKey, type SignupBonus } from '../domain/signup-bonus';
import { signupBonusPepper } from '../config/signup-bonus';
import { documentClient } from './support/aws';
import { BONUS_SK, bonusPk, PROFILE_SK, userPk } from './support/keys';
import { getUser, type UserRecord } from './support/users';
import { ledgerPut, markerPut, newItemPut, type TransactItem } from './support/ledger-items';
import { cancellationCodes, withTransactionRetry } from './support/transactions';

const table = () => storageSettings().TABLE_NAME;

/**
 * Returns the user, creating it first if needed — in one transaction: the user item (`attribute_not_exists`) with
 * {@link SIGNUP_BONUS_CREDITS} credits, the person's bonus marker (`BONUS#<HMAC-SHA256 of the normalised e-mail with
 * the secret pepper>`, which outlives the account), a check that no marker of the older unsalted form
 * (`BONUS#<SHA-256>`, written before the pepper) exists for the same address, nor one keyed by the address's first normalisation (written before the
 * mailbox rules of domain/mailbox.ts), a `signup_bonus` ledger entry and its
 * idempotency marker. When that person already had the
 * bonus (an earlier, deleted account), the user is created with 0 credits and `signupBonus: 'already-claimed'`
 * (docs/architecture.md §8 "Money": the bonus is once per normalised e-mail). An address at a disposable e-mail
 * service gets no bonus at all — the user is created with 0 credits and `signupBonus: 'disposable-address'`, and no
 * marker is claimed (domain/disposable-addresses.ts). Called by the Cognito post-confirmation trigger, by
 * `GET /api/me` and by a generation's start, so no path misses it and no race doubles it (docs/architecture.md §2).
 *
 * @param email the user's e-mail from Cognito; the display name is its part before '@'.
 * @throws {Error} when SIGNUP_BONUS_PEPPER is not configured (config/signup-bonus.ts): nothing is written.
 */
export async function ensureUser(sub: string, email: string): Promise<UserRecord> {
  const existing = await getUser(sub);
  if (existing) return existing;
  if (isDisposableAddress(email)) return createWithoutBonus(sub, email, 'disposable-address');
  const pepper = signupBonusPepper();
  const now = new Date().toISOString();
  const entryId = ulid();
  const profile = (credits: number, signupBonus: SignupBonus) =>
    newProfilePut(sub, email, credits, signupBonus, now);
  try {
    await withTransactionRetry(() =>
      documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            profile(SIGNUP_BONUS_CREDITS, 'granted'),
            newItemPut({
              PK: bonusPk(bonusKey(email, pepper)),
              SK: BONUS_SK,
              type: 'signupBonus',
              claimedAt: now,
            }),
            ...[legacyBonusKey(email), previousBonusKey(email, pepper)].flatMap(noMarker),
            markerPut(sub, 'signup_bonus', sub, entryId, now),
            ledgerPut(sub, entryId, SIGNUP_BONUS_CREDITS, 'signup_bonus', sub, now),
          ],
        }),
      ),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes?.includes('ConditionalCheckFailed')) throw error;
    // The user exists: someone else created it first, theirs is the one and only. Otherwise this person already had
    // the bonus with an earlier account: a new account starts at 0 (no ledger entry: nothing changed hands).
    if (codes[0] !== 'ConditionalCheckFailed') return createWithoutBonus(sub, email, 'already-claimed', now);
  }
  const user = await getUser(sub);
  if (!user) throw new UserNotFoundError();
  return user;
}

/**
 * A check that no older marker of the same address exists (`key` undefined: nothing to check, the older form is the
 * new one), so the transaction fails as for a claimed bonus.
 */
function noMarker(key: string | undefined): TransactItem[] {
  if (key === undefined) return [];
  return [
    {
      ConditionCheck: {
        TableName: table(),
        Key: { PK: bonusPk(key), SK: BONUS_SK },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/** The user item's creation: `credits` and `signupBonus` as given, only if there is no user item yet. */
function newProfilePut(
  sub: string,
  email: string,
  credits: number,
  signupBonus: SignupBonus,
  now: string,
): TransactItem {
  return newItemPut({
    PK: userPk(sub),
    SK: PROFILE_SK,
    type: 'user',
    email,
    displayName: displayNameFromEmail(email),
    credits,
    signupBonus,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Creates the user at 0 credits with the reason the bonus was withheld (no ledger entry: nothing changed hands);
 * when someone else created the user first, theirs is the one and only.
 */
async function createWithoutBonus(
  sub: string,
  email: string,
  reason: Exclude<SignupBonus, 'granted'>,
  now = new Date().toISOString(),
): Promise<UserRecord> {
  await withTransactionRetry(() =>
    documentClient().send(
      new TransactWriteCommand({ TransactItems: [newProfilePut(sub, email, 0, reason, now)] }),
    ),
  ).catch((again: unknown) => {
    if (!cancellationCodes(again)?.includes('ConditionalCheckFailed')) throw again;
  });
  const user = await getUser(sub);
  if (!user) throw new UserNotFoundError();
  return user;
}
