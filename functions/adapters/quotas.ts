import {
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { quotaSettings } from '../config/quotas';
import { storageSettings } from '../config/storage';
import { AccountDeletedError, AccountDeletingError } from '../domain/errors';
import { assertQuotaRule, quotaExceeded, quotaWindow, type QuotaRule } from '../domain/quotas';
import { documentClient } from './support/aws';
import { PROFILE_SK, quotaSk, userPk } from './support/keys';
import { cancellationCodes, withTransactionRetry } from './support/transactions';

/**
 * Fixed-window quota counters in the single table (docs/architecture.md §8 "Money": per-user quotas guard the
 * costly routes). One item per user, rule and window — `PK = USER#<sub>`, `SK = QUOTA#<rule>#<windowStart>` with
 * `used` (units counted) and `expiresAt` (epoch seconds, the table's TTL attribute, one window after the window
 * ends) — so DynamoDB removes old windows by itself and a counter never needs a Scan.
 *
 * A counter only moves under a condition (`used + amount <= limit`), so concurrent requests can never overshoot,
 * and a refused request changes nothing. A signed-in caller's counter moves in one transaction with a check of their
 * user item: once `DELETE /api/me` has started, a token that is still valid (up to an hour) can no longer presign
 * uploads, run photo checks or open a Checkout Session (docs/architecture.md §8 "Money").
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The quotas of the costly routes, sized by configuration (`QUOTA_*` variables, see `.env.example`). */
export function quotaRules() {
  const config = quotaSettings();
  return {
    /** Photos presigned for upload (`POST /api/uploads`): one unit per file. */
    uploads: {
      name: 'uploads',
      limit: config.QUOTA_UPLOADS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'photo uploads',
    },
    /** Checkout Sessions created (`POST /api/checkout/sessions`). */
    checkoutSessions: {
      name: 'checkout-sessions',
      limit: config.QUOTA_CHECKOUT_SESSIONS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'checkout attempts',
    },
    /** Photos checked (`POST /api/photo-checks`): one unit per photo. */
    photoChecks: {
      name: 'photo-checks',
      limit: config.QUOTA_PHOTO_CHECKS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'photo checks',
    },
    /** "Delete my data" runs (`DELETE /api/me/data`): each lists and deletes every object of the caller. */
    dataDeletions: {
      name: 'data-deletions',
      limit: config.QUOTA_DATA_DELETIONS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'data deletions',
    },
    /** Regeneration attempts (`POST /api/headshots/{id}/regenerate`), counted before anything is read. */
    regenerations: {
      name: 'regenerations',
      limit: config.QUOTA_REGENERATIONS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'regenerations',
    },
    /** Edit attempts (`POST /api/headshots/{id}/edits`), counted before anything is read, as regenerations. */
    edits: {
      name: 'edits',
      limit: config.QUOTA_EDITS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'edits',
    },
    /** Payment verifications (`GET /api/checkout/sessions/{id}`): each retrieves the session from Stripe. */
    checkoutVerifications: {
      name: 'checkout-verifications',
      limit: config.QUOTA_CHECKOUT_VERIFICATIONS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'payment checks',
    },
    /** Teams created (`POST /api/teams`), per UTC day. */
    teams: { name: 'teams', limit: config.QUOTA_TEAMS_PER_DAY, windowSeconds: 86_400, noun: 'new teams' },
    /** Invitation e-mails sent or resent (`POST /api/teams/{teamId}/invitations…`): one unit per address. */
    teamInvitations: {
      name: 'team-invitations',
      limit: config.QUOTA_TEAM_INVITATIONS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'team invitations',
    },
    /** Invitations accepted (`POST /api/invites/{token}/accept`), counted before the link is read. */
    teamJoins: {
      name: 'team-joins',
      limit: config.QUOTA_TEAM_JOINS_PER_HOUR,
      windowSeconds: 3600,
      noun: 'team joins',
    },
  } satisfies Record<string, QuotaRule>;
}

/** Who a quota counts for: a Cognito `sub`. Anonymous callers pass a stable, namespaced id (`anon#<id>`). */
export interface QuotaSubject {
  sub: string;
}

/** Anonymous subjects have no user item to check. */
const isAnonymous = (subject: QuotaSubject) => subject.sub.startsWith('anon#');

/** What {@link consumeQuota} used. */
export interface QuotaUse {
  /** When the window ends, epoch seconds. */
  resetAt: number;
  /** Gives this call's units back (e.g. when the work they paid for failed on our side). Never throws. */
  release(): Promise<void>;
}

const table = () => storageSettings().TABLE_NAME;
/** Old windows are kept one more window after they end, then TTL removes them. */
const expiresAt = (rule: QuotaRule, windowEnd: number) => windowEnd + rule.windowSeconds;

function counterUpdate(subject: QuotaSubject, rule: QuotaRule, amount: number, nowMs: number) {
  assertQuotaRule(rule);
  if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`Invalid quota amount: ${amount}`);
  const { start, end } = quotaWindow(rule, nowMs);
  return {
    TableName: table(),
    Key: { PK: userPk(subject.sub), SK: quotaSk(rule.name, start) },
    UpdateExpression: 'ADD used :amount SET expiresAt = if_not_exists(expiresAt, :expiresAt), #type = :type',
    ConditionExpression: 'attribute_not_exists(used) OR used <= :max',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: {
      ':amount': amount,
      ':max': rule.limit - amount,
      ':expiresAt': expiresAt(rule, end),
      ':type': 'quota',
    },
    window: { start, end },
  };
}

/** The user item's guard: its account is neither being deleted nor deleted. */
function activeAccountCheck(sub: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: table(),
      Key: { PK: userPk(sub), SK: PROFILE_SK },
      ConditionExpression: 'attribute_not_exists(deletingAt) AND attribute_not_exists(deletedAt)',
    },
  };
}

/** Why the user item refused: deleted (410) or still being deleted (409). Read only on that rare path. */
async function accountStateError(sub: string): Promise<Error> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: PROFILE_SK },
      ProjectionExpression: 'deletedAt',
    }),
  );
  return Item?.deletedAt ? new AccountDeletedError() : new AccountDeletingError();
}

/**
 * Counts `amount` units of `rule` for `subject` in the current window, or refuses them all.
 *
 * @param amount units, a positive whole number (default 1): e.g. the number of files presigned
 * @param nowMs the clock, epoch ms (tests)
 * @throws {QuotaExceededError} when the window has fewer than `amount` units left (nothing is counted); its
 *   `retryAfterSeconds` is the rest of the window
 * @throws {AccountDeletedError} (410) or {AccountDeletingError} (409) when a signed-in subject's account was deleted
 *   or its deletion has started (nothing is counted)
 */
export async function consumeQuota(
  subject: QuotaSubject,
  rule: QuotaRule,
  amount = 1,
  nowMs = Date.now(),
): Promise<QuotaUse> {
  if (amount > rule.limit) throw quotaExceeded(rule, nowMs);
  const { window, ...update } = counterUpdate(subject, rule, amount, nowMs);
  const use: QuotaUse = {
    resetAt: window.end,
    release: () => releaseQuota(subject, rule, amount, window.start),
  };
  try {
    if (isAnonymous(subject)) {
      await documentClient().send(new UpdateCommand(update));
    } else {
      const items = [{ Update: update }, activeAccountCheck(subject.sub)];
      await withTransactionRetry(() =>
        documentClient().send(new TransactWriteCommand({ TransactItems: items })),
      );
    }
    return use;
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.[1] === 'ConditionalCheckFailed') throw await accountStateError(subject.sub);
    if (
      codes?.[0] === 'ConditionalCheckFailed' ||
      (error as Error).name === 'ConditionalCheckFailedException'
    )
      throw quotaExceeded(rule, nowMs);
    throw error;
  }
}

/**
 * Gives back `amount` units of the window starting at `windowStart` (epoch seconds). Best effort: a failure is
 * swallowed (the window ends anyway), and the counter never goes below zero.
 */
export async function releaseQuota(
  subject: QuotaSubject,
  rule: QuotaRule,
  amount: number,
  windowStart: number,
): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: userPk(subject.sub), SK: quotaSk(rule.name, windowStart) },
        UpdateExpression: 'ADD used :minus',
        ConditionExpression: 'attribute_exists(used) AND used >= :amount',
        ExpressionAttributeValues: { ':minus': -amount, ':amount': amount },
      }),
    )
    .catch(() => undefined);
}

/**
 * The same counter update as one item of a caller's `TransactWriteItems`, so a quota and the work it guards commit
 * together or not at all. When the transaction is cancelled with `ConditionalCheckFailed` on this item, throw
 * `quotaExceeded(rule, nowMs)` (from `functions/domain/quotas.ts`).
 *
 * @throws {RangeError} for an invalid rule or amount
 */
export function quotaTransactItem(
  subject: QuotaSubject,
  rule: QuotaRule,
  amount = 1,
  nowMs = Date.now(),
): TransactItem {
  const { window: _window, ...update } = counterUpdate(subject, rule, amount, nowMs);
  return { Update: update };
}
