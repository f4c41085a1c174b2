import { storageSettings } from '../config/storage';
import { isTerminal, TERMINAL_STATUSES } from '../domain/generation-status';
import { generationInFlight } from '../domain/quotas';
import { documentClient } from './support/aws';
import { generationSk, PROFILE_SK, userPk } from './support/keys';
import type { TransactItem } from './support/ledger-items';
import type { UserRecord } from './support/users';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * What a generation's spend carries besides the ledger's own items (the ledger's `CreditChange.profileGuard` and
 * `extraItems`, adapters/ledger.ts): a condition and SET clauses on the user item, and items checked in the same
 * transaction.
 */
export interface GenerationStartGuard {
  profileGuard: {
    condition: string;
    set?: string;
    names?: Record<string, string>;
    values?: Record<string, unknown>;
  };
  extraItems: TransactItem[];
}

/**
 * The guard a new generation's spend transaction carries (docs/architecture.md §8 "Money": at most one generation
 * in flight per user; an account being deleted starts nothing):
 *
 * - on the user item: `deletingAt` absent, and `lastGenerationId` still the one read before (so two concurrent
 *   starts cannot both pass), then `lastGenerationId` = the new id;
 * - a ConditionCheck that the previous generation is terminal (or gone).
 *
 * Checks the previous generation first too (when the balance covers `cost`, in credits), so the usual refusal
 * needs no transaction.
 *
 * @throws {QuotaExceededError} `generations-in-flight` when the previous generation is not terminal yet
 */
export async function generationStartGuard(
  user: UserRecord | undefined,
  newGenerationId: string,
  cost: number,
): Promise<GenerationStartGuard> {
  const TableName = storageSettings().TABLE_NAME;
  const previous = user?.lastGenerationId;
  // A balance under the cost is answered by the spend itself (402), whatever else is running.
  if (user && previous && user.credits >= cost) {
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName,
        Key: { PK: userPk(user.id), SK: generationSk(previous) },
        ConsistentRead: true,
      }),
    );
    if (Item && !isTerminal(Item.status as never)) throw generationInFlight();
  }
  const terminalValues = Object.fromEntries(TERMINAL_STATUSES.map((s, i) => [`:terminal${i}`, s]));
  return {
    profileGuard: {
      condition: `attribute_not_exists(deletingAt) AND ${
        previous ? 'lastGenerationId = :previousGenerationId' : 'attribute_not_exists(lastGenerationId)'
      }`,
      set: 'lastGenerationId = :newGenerationId',
      values: {
        ':newGenerationId': newGenerationId,
        ...(previous ? { ':previousGenerationId': previous } : {}),
      },
    },
    extraItems:
      user && previous
        ? [
            {
              ConditionCheck: {
                TableName,
                Key: { PK: userPk(user.id), SK: generationSk(previous) },
                ConditionExpression: `attribute_not_exists(SK) OR #status IN (${Object.keys(terminalValues).join(', ')})`,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: terminalValues,
              },
            },
          ]
        : [],
  };
}

/**
 * The user-item part of a {@link GenerationStartGuard} as a transaction item of its own, for a spend whose ledger is
 * not the user's (a team-paid generation: docs/teams.md "Money"), so the one-in-flight and no-deletion rules hold on the
 * user item in the team's spend transaction as they do in a personal one.
 */
export function userGuardItem(sub: string, guard: GenerationStartGuard['profileGuard']): TransactItem {
  const TableName = storageSettings().TABLE_NAME;
  const Key = { PK: userPk(sub), SK: PROFILE_SK };
  const ConditionExpression = `attribute_exists(PK) AND (${guard.condition})`;
  const expression = {
    ...(guard.names ? { ExpressionAttributeNames: guard.names } : {}),
    ...(guard.values ? { ExpressionAttributeValues: guard.values } : {}),
  };
  return guard.set
    ? { Update: { TableName, Key, UpdateExpression: `SET ${guard.set}`, ConditionExpression, ...expression } }
    : { ConditionCheck: { TableName, Key, ConditionExpression, ...expression } };
}
