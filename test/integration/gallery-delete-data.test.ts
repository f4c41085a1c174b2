import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getUser, grantCredits, listLedger, spendCredits } from '../../functions/adapters/ledger';
import { purchaseSk, userPk } from '../../functions/adapters/support/keys';
import { savePhotoFacts } from '../../functions/adapters/photo-checks';
import { headObject, putObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import { type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';
import {
  itemsByKind,
  listPage,
  objectKeys,
  sampleImages,
  seedHeadshots,
  signedUpUser,
  type ErrorBody,
  type Seeded,
} from '../helpers/gallery';
import { generationItem, spendOnGeneration } from '../helpers/generation-items';

/*
 * DELETE /api/me/data on the shared local stack: every upload, result image, headshot and generation goes, credits,
 * purchases and the ledger stay; more than 1,000 objects under one prefix; refused while a generation runs.
 */

const { gatewayUrl } = inject('localStack');

/**
 * The items of `sub` by kind, without the counter of the caller's own `DELETE /api/me/data` calls: each call (even a
 * refused one) counts against the hourly quota (functions/adapters/quotas.ts `dataDeletions`), and that counter is
 * not data the deletion removes or keeps.
 */
async function itemsBesidesDeletionCounter(sub: string) {
  const kinds = await itemsByKind(sub);
  const quotas = (kinds.QUOTA ?? []).filter((q) => !String(q.SK).startsWith('QUOTA#data-deletions#'));
  const { QUOTA: _quota, ...rest } = kinds;
  return quotas.length > 0 ? { ...rest, QUOTA: quotas } : rest;
}

describe('DELETE /api/me/data', () => {
  /** A user with uploads (through the real presigned POST), generations, headshots with images, and a purchase. */
  async function userWithData(): Promise<{ user: TestUser; headshots: Seeded; uploads: string[] }> {
    const user = await signedUpUser();
    const { jpeg } = await sampleImages();
    const uploads = await uploadPhotos(gatewayUrl, user.idToken, [
      fixturePhoto('obama.jpg'),
      fixturePhoto('obama3.jpg'),
    ]);
    // A normalized copy, as PrepareReferences writes one next to the upload.
    await putObject('uploads', `${uploads[0]!.replace(/\/0$/, '')}/normalized/0.jpg`, jpeg, 'image/jpeg');
    const generations = [0, 1].map(() =>
      generationItem(user.sub, {
        status: 'succeeded',
        style: 'creative',
        background: 'studio',
        referenceKeys: uploads,
      }),
    );
    const { TABLE_NAME } = storageSettings();
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [TABLE_NAME]: generations.map(({ item }) => ({
            PutRequest: { Item: { ...item, stage: 'done', progress: 100 } },
          })),
        },
      }),
    );
    const headshots = [
      ...(await seedHeadshots(user.sub, 6, { withImages: 6, generationId: generations[0]!.id })),
      ...(await seedHeadshots(user.sub, 30, { withImages: 30, generationId: generations[1]!.id })),
    ];
    return { user, headshots, uploads };
  }

  it('deletes every upload, result image, headshot and generation; credits, purchases and ledger stay', async () => {
    const [{ user, headshots }, other] = await Promise.all([userWithData(), userWithData()]);
    // Buying and spending left their marks in the ledger and a purchase: those must survive.
    const sessionId = `cs_test_${ulid()}`;
    await grantCredits({
      sub: user.sub,
      amount: 40,
      ref: sessionId,
      related: {
        item: {
          PK: userPk(user.sub),
          SK: purchaseSk(sessionId),
          type: 'purchase',
          packId: 'starter',
          credits: 40,
          amountTotal: 3500,
          currency: 'usd',
          status: 'completed',
          createdAt: new Date().toISOString(),
        },
      },
    });
    await spendCredits({ sub: user.sub, amount: 2, ref: `test-${ulid()}` });
    // A checked photo leaves its face descriptor in the check cache: biometric data goes with the photos.
    await savePhotoFacts(user.sub, `uploads/${user.sub}/${ulid()}/0`, '"etag"', {
      width: 800,
      height: 1000,
      readable: true,
      faces: [{ left: 0.3, top: 0.2, right: 0.7, bottom: 0.6 }],
      descriptor: Array.from({ length: 8 }, () => Math.SQRT1_2 / 2),
    });
    const balance = (await getUser(user.sub))!.credits;
    const ledger = await listLedger(user.sub);
    const kindsBefore = await itemsBesidesDeletionCounter(user.sub);
    const otherBefore = await itemsByKind(other.user.sub);
    const otherObjects = [
      ...(await objectKeys('uploads', `uploads/${other.user.sub}/`)),
      ...(await objectKeys('results', `results/${other.user.sub}/`)),
    ];
    expect(otherObjects).toHaveLength(3 + 72);
    const objectsBefore =
      (await objectKeys('uploads', `uploads/${user.sub}/`)).length +
      (await objectKeys('results', `results/${user.sub}/`)).length;
    expect(objectsBefore).toBe(3 + headshots.length * 2);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 36, generations: 2, objects: objectsBefore } });

    expect(await objectKeys('uploads', `uploads/${user.sub}/`)).toEqual([]);
    expect(await objectKeys('results', `results/${user.sub}/`)).toEqual([]);
    const kindsAfter = await itemsBesidesDeletionCounter(user.sub);
    expect(kindsAfter.HEADSHOT).toBeUndefined();
    expect(kindsAfter.GENERATION).toBeUndefined();
    // Everything else (profile, ledger entries, their idempotency markers, the quota windows — deleting data must
    // not reset a quota) is untouched.
    expect(kindsBefore.PHOTOCHECK).toHaveLength(1);
    expect(kindsAfter.PHOTOCHECK).toBeUndefined();
    const { HEADSHOT: _h, GENERATION: _g, PHOTOCHECK: _p, ...accounting } = kindsBefore;
    expect(Object.keys(accounting).sort()).toEqual(['LEDGER', 'LEDGERREF', 'PROFILE', 'PURCHASE', 'QUOTA']);
    expect(kindsAfter).toEqual(accounting);
    expect((await getUser(user.sub))!.credits).toBe(balance);
    expect(await listLedger(user.sub)).toEqual(ledger);
    await expectLedgerBalanced(user.sub);
    expect(await listPage(user, 'all')).toEqual({
      items: [],
      nextCursor: null,
      stats: { total: 0, favorites: 0 },
    });

    // The other user's data is all there.
    expect(await itemsByKind(other.user.sub)).toEqual(otherBefore);
    expect([
      ...(await objectKeys('uploads', `uploads/${other.user.sub}/`)),
      ...(await objectKeys('results', `results/${other.user.sub}/`)),
    ]).toEqual(otherObjects);

    // Again: nothing left to delete.
    const again = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(await again.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 0 } });
  });

  it('deletes more than 1,000 objects under one prefix (several ListObjectsV2 pages and DeleteObjects calls)', async () => {
    const user = await signedUpUser();
    const other = await signedUpUser();
    const body = Buffer.from('x');
    // Written straight to S3 in parallel batches: the delete path is under test, not the upload path.
    const keys = (sub: string, count: number) =>
      Array.from({ length: count }, (_, i) => `results/${sub}/${ulid()}/${i}.jpg`);
    const mine = keys(user.sub, 1_234);
    const theirs = keys(other.sub, 3);
    const all = [...mine, ...theirs];
    for (let i = 0; i < all.length; i += 100) {
      await Promise.all(all.slice(i, i + 100).map((key) => putObject('results', key, body, 'image/jpeg')));
    }
    expect(await objectKeys('results', `results/${user.sub}/`)).toHaveLength(1_234);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 1_234 } });
    expect(await objectKeys('results', `results/${user.sub}/`)).toEqual([]);
    expect((await objectKeys('results', `results/${other.sub}/`)).sort()).toEqual([...theirs].sort());
  });

  it('refuses (409) while a generation is running, deleting nothing', async () => {
    const user = await signedUpUser();
    const id = await spendOnGeneration(user.sub);
    const seeded = await seedHeadshots(user.sub, 2, { withImages: 2, generationId: id });
    const before = await itemsBesidesDeletionCounter(user.sub);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status).toBe(409);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('GENERATION_IN_PROGRESS');
    expect(body.error.message).toBe(
      'Your headshots are still being generated. Please wait until they are ready, then delete your photos.',
    );
    expect(await itemsBesidesDeletionCounter(user.sub)).toEqual(before);
    expect(await headObject('results', seeded[0]!.imageKey)).toBeDefined();
  });

  it('refuses (409) under a live 35-minute run, deleting nothing and leaving its headshots in place', async () => {
    // A generation created 35 minutes ago whose last call, admitted just before the 30-minute deadline, is still
    // running (executions run up to about 40 minutes: functions/domain/generation-deadline.ts). Deleting now would
    // let that call store its headshot in results/ after everything else was gone.
    const user = await signedUpUser();
    const id = await spendOnGeneration(user.sub, { createdAt: Date.now() - 35 * 60_000, status: 'running' });
    const seeded = await seedHeadshots(user.sub, 5, { withImages: 5, generationId: id });
    const before = await itemsBesidesDeletionCounter(user.sub);
    const objectsBefore = await objectKeys('results', `results/${user.sub}/`);
    expect(objectsBefore).toHaveLength(10);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(409);
    expect(((await res.json()) as ErrorBody).error.code).toBe('GENERATION_IN_PROGRESS');
    // Nothing deleted, nothing refunded: the run goes on and its headshots stay with their items.
    expect(await itemsBesidesDeletionCounter(user.sub)).toEqual(before);
    expect(await objectKeys('results', `results/${user.sub}/`)).toEqual(objectsBefore);
    expect(await headObject('results', seeded[0]!.imageKey)).toBeDefined();
    expect((await getUser(user.sub))!.credits).toBe(0);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'refund')).toEqual([]);
  });

  it('refunds a generation left unfinished longer than any execution can run, then deletes it', async () => {
    const user = await signedUpUser();
    await spendOnGeneration(user.sub, { createdAt: Date.now() - 3 * 3600_000, status: 'running' });
    expect((await getUser(user.sub))!.credits).toBe(0);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 0, generations: 1, objects: 0 } });
    // Its 6 undelivered headshots were refunded before the item went.
    expect((await getUser(user.sub))!.credits).toBe(6);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'refund')).toHaveLength(6);
    await expectLedgerBalanced(user.sub);
    expect((await itemsByKind(user.sub)).GENERATION).toBeUndefined();
  });
});
