import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../../functions/adapters/support/aws';
import { headshotSk, userPk } from '../../functions/adapters/support/keys';
import type { Background, Style } from '../../functions/domain/styles';
import { headshotImageKey, headshotThumbnailKey } from '../../functions/domain/object-keys';

/**
 * The `i`-th of a run of headshot items for `sub`, shaped like the ones the workflow saves (docs/architecture.md §2):
 * a fresh id and generation id (or `fields.generationId`), slot `i % 6`, its object keys, 1 credit used. The caller
 * picks the fields a test or a bench varies.
 */
export function headshotSeedItem(
  sub: string,
  i: number,
  fields: {
    style: Style;
    background: Background;
    isFavorite: boolean;
    createdAt: string;
    generationId?: string;
  },
): { id: string; item: Record<string, unknown> } {
  const id = ulid();
  const generationId = fields.generationId ?? ulid();
  const slot = i % 6;
  const item = {
    PK: userPk(sub),
    SK: headshotSk(id),
    type: 'headshot',
    id,
    userId: sub,
    generationId,
    slot,
    style: fields.style,
    background: fields.background,
    imageKey: headshotImageKey(sub, generationId, slot),
    thumbnailKey: headshotThumbnailKey(sub, generationId, slot),
    isFavorite: fields.isFavorite,
    creditsUsed: 1,
    createdAt: fields.createdAt,
  };
  return { id, item };
}

/** Writes `items` into `table` 25 at a time (BatchWriteItem's limit), resending whatever DynamoDB leaves unprocessed. */
export async function batchPutItems(table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const { UnprocessedItems } = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [table]: pending } }),
      );
      pending = (UnprocessedItems?.[table] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
}
