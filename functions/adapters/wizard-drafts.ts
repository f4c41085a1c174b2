import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import type { WizardDraft } from '../contracts/draft';
import { UserNotFoundError } from '../domain/credits';
import { AccountDeletedError, AccountDeletingError } from '../domain/errors';
import { WIZARD_DRAFT_RETENTION_DAYS } from '../domain/retention';
import { documentClient } from './support/aws';
import { PROFILE_SK, userPk, WIZARD_DRAFT_SK } from './support/keys';
import { cancellationCodes, transactWrite } from './support/transactions';
import { getUser } from './support/users';

/**
 * The wizard's draft kept with the account (docs/architecture.md §2 "wizard draft"): ONE item per user,
 * `PK = USER#<sub>`, `SK = WIZARD_DRAFT`, holding the step, style, outfit, background and photos (upload key, file name,
 * small preview) and `expiresAt`, the table's TTL attribute, {@link WIZARD_DRAFT_RETENTION_DAYS} after the last save.
 */

const table = () => storageSettings().TABLE_NAME;
const key = (sub: string) => ({ PK: userPk(sub), SK: WIZARD_DRAFT_SK });
const DAY_SECONDS = 86_400;

/**
 * The caller's draft, or `undefined` when there is none. An item past its `expiresAt` counts as gone: DynamoDB
 * deletes expired items "within a few days" and reads still return them until then
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html).
 *
 * @param now the clock (tests)
 */
export async function getWizardDraft(sub: string, now = new Date()): Promise<WizardDraft | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: key(sub), ConsistentRead: true }),
  );
  if (!Item || Number(Item.expiresAt) <= Math.floor(now.getTime() / 1000)) return undefined;
  return {
    step: Item.step as WizardDraft['step'],
    style: (Item.style ?? null) as WizardDraft['style'],
    background: (Item.background ?? null) as WizardDraft['background'],
    ...(Item.outfit ? { outfit: Item.outfit as NonNullable<WizardDraft['outfit']> } : {}),
    photos: (Item.photos ?? []) as WizardDraft['photos'],
  };
}

/**
 * Replaces the caller's draft (the last save wins: the SPA sends the whole draft each time), in one transaction
 * with a check that the account exists and is neither being deleted nor deleted, so no draft is written for an
 * account whose data deletion has begun (use-cases/delete-account.ts removes the draft after `deletingAt` is set).
 *
 * @param now the clock (tests): `updatedAt`, and `expiresAt` (epoch seconds) {@link WIZARD_DRAFT_RETENTION_DAYS} later
 * @throws {UserNotFoundError} without a user item (`GET /api/me` creates it); {AccountDeletingError} /
 *   {AccountDeletedError} for an account being or already deleted. Nothing is written then.
 */
export async function putWizardDraft(sub: string, draft: WizardDraft, now = new Date()): Promise<void> {
  const item = {
    ...key(sub),
    type: 'wizard-draft',
    step: draft.step,
    style: draft.style,
    background: draft.background,
    ...(draft.outfit ? { outfit: draft.outfit } : {}),
    photos: draft.photos,
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + WIZARD_DRAFT_RETENTION_DAYS * DAY_SECONDS,
  };
  try {
    await transactWrite([
      { Put: { TableName: table(), Item: item } },
      {
        ConditionCheck: {
          TableName: table(),
          Key: { PK: userPk(sub), SK: PROFILE_SK },
          ConditionExpression:
            'attribute_exists(SK) AND attribute_not_exists(deletingAt) AND attribute_not_exists(deletedAt)',
        },
      },
    ]);
  } catch (error) {
    if (cancellationCodes(error)?.[1] !== 'ConditionalCheckFailed') throw error;
    const user = await getUser(sub);
    if (!user) throw new UserNotFoundError();
    throw user.deletedAt ? new AccountDeletedError() : new AccountDeletingError();
  }
}

/** Deletes the caller's draft; deleting a draft that is not there is no error. */
export async function deleteWizardDraft(sub: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: key(sub) }));
}
