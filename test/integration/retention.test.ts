import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { RETENTION_PK } from '../../functions/adapters/support/keys';
import { headObject } from '../../functions/adapters/storage';
import { sweepMarkerPut } from '../../functions/adapters/sweeper';
import { DESCRIPTOR_MODEL } from '../../functions/domain/likeness';
import { HEADSHOT_RETENTION_DAYS, headshotExpiry } from '../../functions/domain/retention';
import { expireHeadshots } from '../../functions/use-cases/expire-headshots';
import { sweepStrandedGenerations } from '../../functions/use-cases/sweep-generations';
import { generationItem } from '../helpers/generation-items';
import { listPage, seedHeadshots, signedUpUser } from '../helpers/gallery';

/*
 * Retention (docs/decisions/011-retention.md): once no execution can run a generation, the sweeper deletes its
 * reference descriptor and writes its retention marker; when HEADSHOT_RETENTION_DAYS have passed since the
 * generation, its headshots go as the gallery's delete takes them (files, items, counters), and the generation
 * with them. Headshots of a newer generation stay.
 */

const { env } = inject('localStack');
const DAY = 86_400_000;

async function retentionMarkersOf(sub: string) {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': RETENTION_PK },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).filter((m) => m.userId === sub);
}

describe('retention of headshots and reference descriptors', () => {
  it('deletes the descriptor when a generation is swept, and its headshots a retention period after it', async () => {
    const user = await signedUpUser();
    const createdAt = new Date(Date.now() - (HEADSHOT_RETENTION_DAYS + 2) * DAY).toISOString();
    const oldId = ulid(Date.parse(createdAt));
    const marker = sweepMarkerPut(user.sub, oldId, createdAt).Put!;
    await documentClient().send(new PutCommand({ TableName: env.TABLE_NAME, Item: marker.Item }));
    await documentClient().send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...generationItem(user.sub, { id: oldId, createdAt: Date.parse(createdAt), status: 'succeeded' })
            .item,
          referenceDescriptor: Buffer.alloc(512).toString('base64'),
          referenceDescriptorModel: DESCRIPTOR_MODEL,
        },
      }),
    );
    const old = await seedHeadshots(user.sub, 3, { withImages: 3, generationId: oldId, favoriteEvery: 2 });
    const recent = await seedHeadshots(user.sub, 2, { withImages: 2 });
    const favorites = (seeded: typeof old) => seeded.filter((h) => h.isFavorite).length;
    expect((await listPage(user, 'all')).stats).toEqual({ total: 5, favorites: favorites(old) });
    expect(favorites(old)).toBeGreaterThan(0);

    // The sweep retires the ended generation: descriptor gone, retention marker at creation + the period.
    await sweepStrandedGenerations();
    const swept = await getGeneration(user.sub, oldId);
    expect(swept?.status).toBe('succeeded');
    expect(swept?.referenceDescriptor).toBeUndefined();
    expect(swept?.referenceDescriptorModel).toBeUndefined();
    const [retention] = await retentionMarkersOf(user.sub);
    expect(retention).toMatchObject({ generationId: oldId, expiry: headshotExpiry(createdAt) });

    // Before the expiry nothing goes; after it, the old generation's headshots and item go, the recent ones stay.
    await expireHeadshots(Date.parse(headshotExpiry(createdAt)) - 60_000);
    expect((await listPage(user, 'all')).stats.total).toBe(5);
    await expireHeadshots();
    for (const headshot of old) expect(await headObject('results', headshot.imageKey)).toBeUndefined();
    for (const headshot of recent) expect(await headObject('results', headshot.imageKey)).toBeDefined();
    const page = await listPage(user, 'all');
    expect(page.items.map((h) => h.id).sort()).toEqual(recent.map((h) => h.id).sort());
    expect(page.stats).toEqual({ total: 2, favorites: favorites(recent) });
    expect(await getGeneration(user.sub, oldId)).toBeUndefined();
    expect(await retentionMarkersOf(user.sub)).toEqual([]);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: env.TABLE_NAME, Key: { PK: marker.Item!.PK, SK: marker.Item!.SK } }),
    );
    expect(Item).toBeUndefined();
  });
});
