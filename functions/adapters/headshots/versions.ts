import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { storageSettings } from '../../config/storage';
import type { EditRequest } from '../../domain/edits';
import { GenerationClosedError } from '../../domain/generation-errors';
import { HeadshotDeletedError } from '../../domain/headshot-versions';
import { documentClient } from '../support/aws';
import { headshotSk, userPk, versionSk } from '../support/keys';
import { deleteObjects } from '../support/objects';
import { batchDelete, keyOf, queryAll } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { ownImageKeys, readSlots, slotSavedUpdate, type HeadshotRecord } from './records';

/**
 * The versions of a headshot (issue 36, docs/architecture.md §2): an edit's result, stored as its own item
 * `VERSION#<headshotId>#<versionId>` in the owner's `USER#<sub>` partition, with its files under the results bucket
 * like a headshot's (the edit generation's folder, domain/object-keys.ts), so the same retention and deletion rules
 * reach them. The root headshot item (`HEADSHOT#<headshotId>`, the gallery's) keeps `versionCount`; the gallery's
 * counters (./stats.ts) count headshots, never versions.
 */

/** A version item (`VERSION#<headshotId>#<versionId>`), without PK/SK/type. */
export type HeadshotVersionRecord = Pick<
  HeadshotRecord,
  'userId' | 'generationId' | 'slot' | 'imageKey' | 'thumbnailKey' | 'variants' | 'likeness' | 'provider'
> & {
  /** ULID of the version; later versions sort last. */
  id: string;
  /** The headshot (gallery item) it is a version of. */
  headshotId: string;
  /** The version it was made from; absent when made from the original headshot. */
  sourceVersionId?: string;
  /** What the edit changed. */
  edit: EditRequest;
  /** True when its files keep an alpha channel (a transparent background: PNG square/portrait/original). */
  transparent: boolean;
  /** Credits it cost (1, docs/architecture.md §4). */
  creditsUsed: number;
  /** ISO 8601 UTC. */
  createdAt: string;
};

/** What {@link saveHeadshotVersion} stores: the owner's `sub` and the version's own fields. */
export type NewHeadshotVersion = { sub: string } & Omit<
  HeadshotVersionRecord,
  'id' | 'userId' | 'createdAt' | 'creditsUsed'
> & {
    /** Credits the slot cost; default 1. */
    creditsUsed?: number;
  };

const table = () => storageSettings().TABLE_NAME;
const versionPrefix = (headshotId: string) => versionSk(headshotId, '');

function toVersion(item: Record<string, unknown>): HeadshotVersionRecord {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as unknown as HeadshotVersionRecord;
}

/**
 * Saves one edit slot's version in one TransactWriteItems: the version item (only if new), the root headshot's
 * `versionCount` + 1 (only while the root exists), and on the generation `slots.<n>` = the version's id,
 * `imagesSaved` + 1, `progress` + 8 (only while it is open and the slot empty: records.ts `slotSavedUpdate`).
 * The gallery's counters are not touched. Idempotent: a repeated call for a saved slot returns the version saved
 * first.
 *
 * @returns the version's id and whether this call saved it
 * @throws {HeadshotDeletedError} the root headshot was deleted meanwhile (the caller deletes the files; the slot is
 *   refunded)
 * @throws {GenerationClosedError} the generation was closed before this slot finished (its credit refunded)
 */
export async function saveHeadshotVersion(
  input: NewHeadshotVersion,
): Promise<{ versionId: string; saved: boolean }> {
  const id = ulid();
  const now = new Date().toISOString();
  const { sub, creditsUsed, ...fields } = input;
  const version: HeadshotVersionRecord = {
    ...fields,
    id,
    userId: sub,
    creditsUsed: creditsUsed ?? 1,
    createdAt: now,
  };
  try {
    await transactWrite([
      {
        Put: {
          TableName: table(),
          Item: {
            PK: userPk(sub),
            SK: versionSk(input.headshotId, id),
            type: 'headshot-version',
            ...version,
          },
          ConditionExpression: 'attribute_not_exists(SK)',
        },
      },
      {
        Update: {
          TableName: table(),
          Key: { PK: userPk(sub), SK: headshotSk(input.headshotId) },
          UpdateExpression: 'ADD versionCount :one',
          ConditionExpression: 'attribute_exists(SK)',
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      slotSavedUpdate(sub, input.generationId, input.slot, id, now),
    ]);
    return { versionId: id, saved: true };
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes?.includes('ConditionalCheckFailed')) throw error;
    const existing = (await readSlots(sub, input.generationId))[String(input.slot)];
    if (existing) return { versionId: existing, saved: false };
    if (codes[1] === 'ConditionalCheckFailed') {
      throw new HeadshotDeletedError(`Headshot ${input.headshotId} was deleted before its edit was saved`);
    }
    throw new GenerationClosedError(
      `Generation ${input.generationId} closed before slot ${input.slot} was saved`,
    );
  }
}

/** Reads one version of one of `sub`'s headshots (strongly consistent); `undefined` when there is none. */
export async function getHeadshotVersion(
  sub: string,
  headshotId: string,
  versionId: string,
): Promise<HeadshotVersionRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: versionSk(headshotId, versionId) },
      ConsistentRead: true,
    }),
  );
  return Item ? toVersion(Item) : undefined;
}

/** Every version of one of `sub`'s headshots, oldest first (strongly consistent); none for another user's id. */
export async function listHeadshotVersions(
  sub: string,
  headshotId: string,
): Promise<HeadshotVersionRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': versionPrefix(headshotId) },
    ConsistentRead: true,
  });
  return items.map(toVersion);
}

/**
 * Deletes one version: its files first, then the item with the root's `versionCount` − 1 in one transaction, so a
 * failure part way leaves the item and a retry finishes the job. A root already gone (its own deletion is under
 * way) only loses the item.
 *
 * @returns false when `sub` has no such version (nothing is touched)
 */
export async function deleteHeadshotVersion(
  sub: string,
  headshotId: string,
  versionId: string,
): Promise<boolean> {
  const version = await getHeadshotVersion(sub, headshotId, versionId);
  if (!version) return false;
  await deleteObjects(storageSettings().RESULTS_BUCKET, ownImageKeys(sub, version));
  const key = { PK: userPk(sub), SK: versionSk(headshotId, versionId) };
  try {
    await transactWrite([
      { Delete: { TableName: table(), Key: key, ConditionExpression: 'attribute_exists(SK)' } },
      {
        Update: {
          TableName: table(),
          Key: { PK: userPk(sub), SK: headshotSk(headshotId) },
          UpdateExpression: 'ADD versionCount :minusOne',
          ConditionExpression: 'attribute_exists(SK) AND versionCount > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      },
    ]);
  } catch (error) {
    const codes = cancellationCodes(error);
    // Deleted meanwhile by another request: done.
    if (codes?.[0] === 'ConditionalCheckFailed') return true;
    if (codes?.[1] !== 'ConditionalCheckFailed') throw error;
    // The root is gone (its own deletion is under way): the item goes without a count to keep.
    await batchDelete([key]);
  }
  return true;
}

/**
 * Deletes every version of one headshot, files first, then the items (the root's own deletion follows, so its
 * `versionCount` is not kept).
 *
 * @returns how many versions were deleted
 */
export async function deleteHeadshotVersions(sub: string, headshotId: string): Promise<number> {
  const versions = await listHeadshotVersions(sub, headshotId);
  await deleteObjects(
    storageSettings().RESULTS_BUCKET,
    versions.flatMap((version) => ownImageKeys(sub, version)),
  );
  await batchDelete(versions.map((version) => ({ PK: userPk(sub), SK: versionSk(headshotId, version.id) })));
  return versions.length;
}

/** The table keys of every version item of `sub`, of every headshot (for deleting all of a user's data). */
export async function listVersionKeys(sub: string): Promise<{ PK: string; SK: string }[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': 'VERSION#' },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  return items.map(keyOf);
}
