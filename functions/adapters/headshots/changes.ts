import { storageSettings } from '../../config/storage';
import { headshotSk, userPk } from '../support/keys';
import { deleteObjects } from '../support/objects';
import { batchDelete } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { getHeadshot, listHeadshotKeys, ownImageKeys, type HeadshotRecord } from './records';
import { deleteGalleryStats, galleryCounterUpdate } from './stats';
import { listVersionKeys } from './versions';

/**
 * Changes to one headshot from the gallery (docs/architecture.md, API): favorite, delete. Each is one DynamoDB
 * transaction with the gallery's counters on the stats item (./stats.ts), and touches only the
 * caller's `USER#<sub>` partition and `results/<sub>/` prefix.
 */

const table = () => storageSettings().TABLE_NAME;

/**
 * Sets `isFavorite` on one of `sub`'s headshots (only if it exists: never creates one). A change is one transaction
 * with the favorites counter on the stats item (./stats.ts); setting the value it already has writes
 * nothing. The headshot is read first and written only if its `isFavorite` is still what was read (a concurrent
 * toggle makes it read again).
 *
 * @returns the updated headshot, or `undefined` when `sub` has no headshot with that id
 */
export async function setFavorite(
  sub: string,
  id: string,
  isFavorite: boolean,
): Promise<HeadshotRecord | undefined> {
  for (let attempt = 1; ; attempt++) {
    const headshot = await getHeadshot(sub, id);
    if (!headshot) return undefined;
    const was = headshot.isFavorite === true;
    if (was === isFavorite) return headshot;
    try {
      await transactWrite([
        {
          Update: {
            TableName: table(),
            Key: { PK: userPk(sub), SK: headshotSk(id) },
            UpdateExpression: 'SET #isFavorite = :isFavorite',
            ConditionExpression: was
              ? 'attribute_exists(SK) AND #isFavorite = :true'
              : 'attribute_exists(SK) AND (attribute_not_exists(#isFavorite) OR #isFavorite <> :true)',
            ExpressionAttributeNames: { '#isFavorite': 'isFavorite' },
            ExpressionAttributeValues: { ':isFavorite': isFavorite, ':true': true },
          },
        },
        galleryCounterUpdate(sub, { headshots: 0, favorites: isFavorite ? 1 : -1 }),
      ]);
      return { ...headshot, isFavorite };
    } catch (error) {
      if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= 5) throw error;
    }
  }
}

/**
 * Deletes one of `sub`'s headshots: both S3 objects (full image and thumbnail) first, then the item, so a failure
 * part way leaves the item in place and a retry finishes the job (never an item pointing at nothing, nor an image
 * nobody can delete any more).
 *
 * @returns false when `sub` has no headshot with that id (nothing is touched)
 */
export async function deleteHeadshot(sub: string, id: string): Promise<boolean> {
  const headshot = await getHeadshot(sub, id);
  if (!headshot) return false;
  await deleteObjects(storageSettings().RESULTS_BUCKET, ownImageKeys(sub, headshot));
  await deleteHeadshotItem(sub, headshot);
  return true;
}

/**
 * Deletes the headshot item and takes it off the gallery's counters in one transaction, provided its
 * `isFavorite` is still the one read (else reads it again). A headshot already gone counts as deleted.
 */
async function deleteHeadshotItem(sub: string, read: HeadshotRecord): Promise<void> {
  let headshot: HeadshotRecord | undefined = read;
  for (let attempt = 1; headshot; attempt++) {
    const favorite = headshot.isFavorite === true;
    try {
      await transactWrite([
        {
          Delete: {
            TableName: table(),
            Key: { PK: userPk(sub), SK: headshotSk(read.id) },
            ConditionExpression: favorite
              ? 'attribute_exists(SK) AND #isFavorite = :true'
              : 'attribute_exists(SK) AND (attribute_not_exists(#isFavorite) OR #isFavorite <> :true)',
            ExpressionAttributeNames: { '#isFavorite': 'isFavorite' },
            ExpressionAttributeValues: { ':true': true },
          },
        },
        galleryCounterUpdate(sub, { headshots: -1, favorites: favorite ? -1 : 0 }),
      ]);
      return;
    } catch (error) {
      if (!cancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= 5) throw error;
      headshot = await getHeadshot(sub, read.id);
    }
  }
}

/**
 * Deletes every headshot item of `sub` and every version item (./versions.ts; BatchWriteItem, which has no room for
 * the counters), then the gallery's stats item, so nothing of the gallery is left and the next read counts again.
 * The images (versions' too, under the same prefix) are deleted with the user's objects (adapters/user-objects.ts).
 *
 * @returns how many headshot items were deleted (versions are not counted: the gallery counts headshots)
 */
export async function deleteAllHeadshotItems(sub: string): Promise<number> {
  const keys = await listHeadshotKeys(sub);
  await batchDelete([...keys, ...(await listVersionKeys(sub))]);
  await deleteGalleryStats(sub);
  return keys.length;
}
