import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { logger } from '../../common/logger';
import { storageSettings } from '../../config/storage';
import { GenerationClosedError, GenerationNotFoundError } from '../../domain/generation-errors';
import { PROGRESS } from '../../domain/generation-status';
import { type Background, type Style } from '../../domain/styles';
import type { Outfit } from '../../domain/outfits';
import type { Resolution } from '../../domain/headshot-variants';
import { documentClient } from '../support/aws';
import { generationSk, headshotSk, userPk } from '../support/keys';
import { keyOf, queryAll } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { galleryCounterUpdate } from './stats';

/**
 * THE headshot storage (docs/architecture.md §2): the headshot items of a user's partition (`HEADSHOT#<ulid>`) and
 * their images under `results/<sub>/`. This module reads and saves them; ./pages.ts lists the gallery, ./changes.ts
 * favorites and deletes one, ./stats.ts keeps the gallery's counters. Every operation takes the owner's `sub` and
 * touches only the `USER#<sub>` partition and the `results/<sub>/` prefix, so another user's id finds nothing.
 */

/** A stored download of a headshot besides its square (domain/headshot-variants.ts): where and how large. */
export interface StoredVariant {
  /** Results-bucket key (domain/object-keys.ts `headshotVariantKey`). */
  key: string;
  /** Pixels. */
  width: number;
  height: number;
  /** Size of the file, bytes. */
  bytes: number;
}

/** The headshot item (`HEADSHOT#<ulid>`). */
export interface HeadshotRecord {
  id: string;
  userId: string;
  generationId: string;
  /** 0-5: which slot of its generation made it. */
  slot: number;
  style: Style;
  background: Background;
  /** What the person wears (domain/outfits.ts); absent on headshots made before outfits: their own clothing. */
  outfit?: Outfit;
  /**
   * The slot variation its prompt named (domain/prompts.ts), when it is not its slot's own: a regeneration's, which
   * keeps the regenerated headshot's. Absent: variation `slot`.
   */
  variation?: number;
  /** Results-bucket key of the 1024×1024 JPEG. */
  imageKey: string;
  /** Results-bucket key of the WebP thumbnail (≤ 384 px). */
  thumbnailKey: string;
  /**
   * The 4:5 portrait JPEG and the original PNG, stored once with the square (issue 28); absent on headshots made
   * before there were variants, which offer only the square.
   */
  variants?: { portrait: StoredVariant; original: StoredVariant };
  /** The canvas it was made at (`high`: the high-resolution option); absent on headshots made before the option. */
  resolution?: Resolution;
  isFavorite: boolean;
  /** How much it looks like the customer, 0-100 (absent on headshots made before likeness was measured). */
  likeness?: number;
  /**
   * The image provider that made it (`openai`, or `local`: an offline composite of the customer's own photos, shown
   * as a preview); absent on headshots saved before it was recorded, which were all made by `openai` or before
   * `local` marked its images.
   */
  provider?: string;
  /** Credits it cost: 1 (docs/architecture.md §4), or 2 for the high-resolution option. */
  creditsUsed: number;
  createdAt: string;
  /** How many versions (edits' results, ./versions.ts) it has; absent: none yet. */
  versionCount?: number;
  /**
   * The team that paid its generation (the generation's `payer`, docs/teams.md "The screens"), written by the server
   * when the headshot is saved; absent: the customer's own (every headshot before teams).
   */
  teamId?: string;
}

const HEADSHOT_PREFIX = headshotSk('');
const table = () => storageSettings().TABLE_NAME;

/** A headshot item as read (without PK/SK/type). */
export function toHeadshot(item: Record<string, unknown>): HeadshotRecord {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as unknown as HeadshotRecord;
}

/** The `slots` of a generation (strongly consistent), to tell a repeated save from a closed generation. */
export async function readSlots(sub: string, generationId: string): Promise<Record<string, string>> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      ProjectionExpression: 'slots',
      ConsistentRead: true,
    }),
  );
  if (!Item) throw new GenerationNotFoundError(`Generation ${generationId} not found`);
  return (Item.slots as Record<string, string> | undefined) ?? {};
}

/** What {@link saveHeadshot} stores: the owner's `sub` and the headshot's own fields (likeness: domain/likeness.ts). */
export type NewHeadshot = { sub: string } & Pick<
  HeadshotRecord,
  | 'generationId'
  | 'slot'
  | 'style'
  | 'background'
  | 'outfit'
  | 'variation'
  | 'imageKey'
  | 'thumbnailKey'
  | 'likeness'
  | 'provider'
  | 'variants'
  | 'resolution'
  | 'teamId'
> & {
    /** Credits the slot cost (1, or 2 at high resolution); default 1. */
    creditsUsed?: number;
  };

/**
 * Saves one slot's headshot in one transaction: the headshot item (isFavorite false, creditsUsed 1), on the
 * generation `slots.<n>` = its id, `imagesSaved` + 1 and `progress` + 8 — only while the generation is open and
 * the slot is still empty — and the gallery's headshot counter on the stats item + 1 (./stats.ts).
 * Idempotent: a repeated call for a saved slot returns the headshot saved first.
 *
 * @returns the headshot's id and whether this call saved it
 * @throws {GenerationClosedError} when the generation was closed before this slot finished (its credit refunded)
 */
export async function saveHeadshot(input: NewHeadshot): Promise<{ headshotId: string; saved: boolean }> {
  const id = ulid();
  const now = new Date().toISOString();
  const slotName = String(input.slot);
  const headshot: HeadshotRecord = {
    id,
    userId: input.sub,
    generationId: input.generationId,
    slot: input.slot,
    style: input.style,
    background: input.background,
    ...(input.outfit === undefined ? {} : { outfit: input.outfit }),
    ...(input.variation === undefined ? {} : { variation: input.variation }),
    imageKey: input.imageKey,
    thumbnailKey: input.thumbnailKey,
    ...(input.variants === undefined ? {} : { variants: input.variants }),
    ...(input.resolution === undefined ? {} : { resolution: input.resolution }),
    isFavorite: false,
    ...(input.likeness === undefined ? {} : { likeness: input.likeness }),
    ...(input.provider === undefined ? {} : { provider: input.provider }),
    ...(input.teamId === undefined ? {} : { teamId: input.teamId }),
    creditsUsed: input.creditsUsed ?? 1,
    createdAt: now,
  };
  try {
    await transactWrite([
      {
        Put: {
          TableName: table(),
          Item: { PK: userPk(input.sub), SK: headshotSk(id), type: 'headshot', ...headshot },
          ConditionExpression: 'attribute_not_exists(SK)',
        },
      },
      slotSavedUpdate(input.sub, input.generationId, input.slot, id, now),
      galleryCounterUpdate(input.sub, { headshots: 1, favorites: 0 }),
    ]);
    return { headshotId: id, saved: true };
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    const existing = (await readSlots(input.sub, input.generationId))[slotName];
    if (existing) return { headshotId: existing, saved: false };
    throw new GenerationClosedError(
      `Generation ${input.generationId} closed before slot ${input.slot} was saved`,
    );
  }
}

/**
 * The generation's side of a slot's save (a headshot, or a version: ./versions.ts): `slots.<n>` = the saved item's id,
 * `imagesSaved` + 1 and `progress` + 8, only while the generation is open and the slot is still empty.
 */
export function slotSavedUpdate(sub: string, generationId: string, slot: number, id: string, now: string) {
  return {
    Update: {
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      UpdateExpression: 'SET slots.#slot = :id, updatedAt = :now ADD imagesSaved :one, progress :step',
      ConditionExpression:
        'attribute_exists(SK) AND attribute_not_exists(closedAt) AND attribute_not_exists(slots.#slot)',
      ExpressionAttributeNames: { '#slot': String(slot) },
      ExpressionAttributeValues: { ':id': id, ':now': now, ':one': 1, ':step': PROGRESS.perHeadshot },
    },
  };
}

/** Reads one of `sub`'s headshots (strongly consistent); `undefined` when there is none with that id. */
export async function getHeadshot(sub: string, id: string): Promise<HeadshotRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: headshotSk(id) },
      ConsistentRead: true,
    }),
  );
  return Item ? toHeadshot(Item) : undefined;
}

/**
 * Reads headshot items by id (strongly consistent), in the order given; ids without an item (deleted) are skipped.
 */
export async function getHeadshots(sub: string, ids: readonly string[]): Promise<HeadshotRecord[]> {
  if (ids.length === 0) return [];
  const found = new Map<string, HeadshotRecord>();
  let keys: Record<string, unknown>[] = ids.map((id) => ({ PK: userPk(sub), SK: headshotSk(id) }));
  // BatchGet may leave keys unprocessed under load; ask again for those (at most 100 keys per call, we have ≤ 6).
  for (let attempt = 0; keys.length > 0 && attempt < 5; attempt++) {
    const page = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of page.Responses?.[table()] ?? []) {
      found.set(String(item.id), toHeadshot(item));
    }
    keys = (page.UnprocessedKeys?.[table()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    if (keys.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
  }
  return ids.map((id) => found.get(id)).filter((h): h is HeadshotRecord => h !== undefined);
}

/** The table keys of every headshot item of `sub` (for deleting them all). */
export async function listHeadshotKeys(sub: string): Promise<{ PK: string; SK: string }[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': HEADSHOT_PREFIX },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  return items.map(keyOf);
}

/** The results-bucket prefix of `sub`'s headshot images. */
export function resultsPrefix(sub: string): string {
  return `results/${sub}/`;
}

/**
 * The keys of a headshot's files (the square, its thumbnail, and the portrait and original when it has them), refusing
 * any key outside the owner's own results prefix.
 */
export function ownImageKeys(
  sub: string,
  headshot: Pick<HeadshotRecord, 'id' | 'imageKey' | 'thumbnailKey' | 'variants'>,
): string[] {
  const variants = headshot.variants ? [headshot.variants.portrait.key, headshot.variants.original.key] : [];
  return [headshot.imageKey, headshot.thumbnailKey, ...variants].filter((key) => {
    const own = typeof key === 'string' && key.startsWith(resultsPrefix(sub)) && !key.includes('..');
    if (!own) logger.warn('Headshot image key outside the owner prefix left alone', { id: headshot.id, key });
    return own;
  });
}
