import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import sharp from 'sharp';
import { newGenerationItem } from '../../functions/adapters/generations';
import { saveHeadshotVersion } from '../../functions/adapters/headshots/versions';
import { headObject, putObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import type { HeadshotVersions } from '../../functions/contracts/edits';
import { versionVariantKey, headshotThumbnailKey } from '../../functions/domain/object-keys';
import { batchPutItems } from '../helpers/headshot-items';
import { api } from '../helpers/generation';
import {
  itemsByKind,
  listPage,
  seedHeadshots,
  signedUpUser,
  type ErrorBody,
  sampleImages,
} from '../helpers/gallery';

/*
 * One headshot at a time on the shared local stack: favorites (with the gallery's stats), downloads and deleting one
 * headshot, each refused for another user's ids. Headshots are seeded as the workflow stores them.
 */

const { gatewayUrl } = inject('localStack');

describe('favorites, downloads and deleting one headshot', () => {
  it('favorite round trip, with the stats right after each change', async () => {
    const user = await signedUpUser();
    const [a, b] = await seedHeadshots(user.sub, 6, { withImages: 6 });
    const patch = (id: string, body: unknown) =>
      api(gatewayUrl, user.idToken, 'PATCH', `/api/headshots/${id}`, body);

    const on = await patch(a!.id, { isFavorite: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ id: a!.id, isFavorite: true, style: a!.style });
    expect((await patch(b!.id, { isFavorite: true })).status).toBe(200);
    expect((await patch(b!.id, { isFavorite: true })).status).toBe(200); // idempotent
    let page = await listPage(user, 'all');
    expect(page.stats).toEqual({ total: 6, favorites: 2 });
    expect(page.items.filter((i) => i.isFavorite).map((i) => i.id)).toEqual([a!.id, b!.id]);
    expect((await listPage(user, 'favorites')).items.map((i) => i.id)).toEqual([a!.id, b!.id]);

    const off = await patch(a!.id, { isFavorite: false });
    expect(await off.json()).toMatchObject({ id: a!.id, isFavorite: false });
    page = await listPage(user, 'all');
    expect(page.stats).toEqual({ total: 6, favorites: 1 });
    expect((await listPage(user, 'favorites')).items.map((i) => i.id)).toEqual([b!.id]);

    // Deleting a favorite lowers both counts.
    expect((await api(gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${b!.id}`)).status).toBe(204);
    expect((await listPage(user, 'all')).stats).toEqual({ total: 5, favorites: 0 });

    for (const body of [{}, { isFavorite: 'yes' }, { isFavorite: true, style: 'creative' }, undefined]) {
      const res = await patch(a!.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('download: a presigned URL served as an attachment named headshot-<style>-<background>-<n>-square.jpg', async () => {
    const user = await signedUpUser();
    const [h] = await seedHeadshots(user.sub, 1, { withImages: 1 });
    const name = `headshot-${h!.style}-${h!.background}-${h!.slot + 1}-square.jpg`;
    const res = await api(gatewayUrl, user.idToken, 'GET', `/api/headshots/${h!.id}/download`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; fileName: string; expiresAt: string };
    expect(body.fileName).toBe(name);
    const url = new URL(body.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('response-content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(url.searchParams.get('response-content-type')).toBe('image/jpeg');
    const file = await fetch(body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer()).equals((await sampleImages()).jpeg)).toBe(true);

    // A headshot made before issue 28 has only the square: the other files are a 404, an unknown one a 400.
    const portrait = await api(
      gatewayUrl,
      user.idToken,
      'GET',
      `/api/headshots/${h!.id}/download?variant=portrait`,
    );
    expect(portrait.status).toBe(404);
    const other = await api(gatewayUrl, user.idToken, 'GET', `/api/headshots/${h!.id}/download?variant=huge`);
    expect(other.status).toBe(400);
  });

  it('delete one: 204, its JPEG and thumbnail are gone from S3, the others stay', async () => {
    const user = await signedUpUser();
    const [gone, kept] = await seedHeadshots(user.sub, 2, { withImages: 2 });
    expect(await headObject('results', gone!.imageKey)).toBeDefined();

    const res = await api(gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${gone!.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await headObject('results', gone!.imageKey)).toBeUndefined();
    expect(await headObject('results', gone!.thumbnailKey)).toBeUndefined();
    expect(await headObject('results', kept!.imageKey)).toBeDefined();
    expect(await headObject('results', kept!.thumbnailKey)).toBeDefined();
    const page = await listPage(user, 'all');
    expect(page.items.map((i) => i.id)).toEqual([kept!.id]);
    expect(page.stats.total).toBe(1);

    // Gone is gone: a second delete, a favorite or a download of it is 404.
    for (const [method, path, body] of [
      ['DELETE', `/api/headshots/${gone!.id}`],
      ['PATCH', `/api/headshots/${gone!.id}`, { isFavorite: true }],
      ['GET', `/api/headshots/${gone!.id}/download`],
    ] as const) {
      expect((await api(gatewayUrl, user.idToken, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('versions (issue 36): listed oldest first, downloaded under -v<k>- names, deleted one by one and with their headshot', async () => {
    const user = await signedUpUser();
    const [h] = await seedHeadshots(user.sub, 1, { withImages: 1 });
    const { jpeg, webp } = await sampleImages();
    const png = await sharp({
      create: { width: 64, height: 80, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    /** An edit's one-slot generation and its saved version, its square and thumbnail stored as FinishHeadshot does. */
    const saveVersion = async (transparent: boolean) => {
      const generationId = ulid();
      const now = new Date().toISOString();
      const item = { id: generationId, sub: user.sub, style: 'creative', background: 'office', now } as const;
      await batchPutItems(storageSettings().TABLE_NAME, [newGenerationItem({ ...item, referenceKeys: [] })]);
      const imageKey = versionVariantKey(user.sub, generationId, 0, 'square', transparent);
      const thumbnailKey = headshotThumbnailKey(user.sub, generationId, 0);
      await putObject(
        'results',
        imageKey,
        transparent ? png : jpeg,
        transparent ? 'image/png' : 'image/jpeg',
      );
      await putObject('results', thumbnailKey, webp, 'image/webp');
      const edit = transparent
        ? ({ kind: 'background', background: { type: 'transparent' } } as const)
        : ({ kind: 'upscale' } as const);
      const { versionId } = await saveHeadshotVersion({
        sub: user.sub,
        headshotId: h!.id,
        generationId,
        slot: 0,
        edit,
        transparent,
        imageKey,
        thumbnailKey,
      });
      return { versionId, imageKey, thumbnailKey };
    };
    const v1 = await saveVersion(false);
    const v2 = await saveVersion(true);

    const listed = await api(gatewayUrl, user.idToken, 'GET', `/api/headshots/${h!.id}/versions`);
    expect(listed.status).toBe(200);
    const { versions } = (await listed.json()) as HeadshotVersions;
    expect(versions.map((v) => [v.id, v.transparent])).toEqual([
      [v1.versionId, false],
      [v2.versionId, true],
    ]);
    expect((await fetch(versions[1]!.imageUrl)).status).toBe(200);
    expect((await listPage(user, 'all')).items[0]).toMatchObject({ id: h!.id, versionCount: 2 });

    const name = `headshot-${h!.style}-${h!.background}-${h!.slot + 1}-v2-square.png`;
    const download = await api(
      gatewayUrl,
      user.idToken,
      'GET',
      `/api/headshots/${h!.id}/download?variant=square&version=${v2.versionId}`,
    );
    expect(download.status).toBe(200);
    const { url, fileName } = (await download.json()) as { url: string; fileName: string };
    expect(fileName).toBe(name);
    const file = await fetch(url);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);

    const deleted = await api(
      gatewayUrl,
      user.idToken,
      'DELETE',
      `/api/headshots/${h!.id}/versions/${v1.versionId}`,
    );
    expect(deleted.status).toBe(204);
    expect(await headObject('results', v1.imageKey)).toBeUndefined();
    expect(await headObject('results', v1.thumbnailKey)).toBeUndefined();
    expect(await headObject('results', v2.imageKey)).toBeDefined();
    expect((await listPage(user, 'all')).items[0]).toMatchObject({ versionCount: 1 });

    // Deleting the headshot deletes its remaining versions and their files.
    expect((await api(gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${h!.id}`)).status).toBe(204);
    expect(await headObject('results', v2.imageKey)).toBeUndefined();
    expect(await headObject('results', v2.thumbnailKey)).toBeUndefined();
    expect((await api(gatewayUrl, user.idToken, 'GET', `/api/headshots/${h!.id}/versions`)).status).toBe(404);
  });

  it("another user's ids → 404 on every route, and nothing changes", async () => {
    const [owner, intruder] = await Promise.all([signedUpUser(), signedUpUser()]);
    const [h] = await seedHeadshots(owner.sub, 1, { withImages: 1 });
    const before = await itemsByKind(owner.sub);

    const attempts = [
      ['PATCH', `/api/headshots/${h!.id}`, { isFavorite: true }],
      ['GET', `/api/headshots/${h!.id}/download`, undefined],
      ['DELETE', `/api/headshots/${h!.id}`, undefined],
      // Ids that cannot name a headshot get the same answer.
      ['PATCH', '/api/headshots/not-an-id', { isFavorite: true }],
      ['GET', `/api/headshots/${h!.id.toLowerCase()}/download`, undefined],
      ['DELETE', `/api/headshots/${ulid()}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await api(gatewayUrl, intruder.idToken, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as ErrorBody).error).toEqual({
        code: 'NOT_FOUND',
        message: 'Headshot not found.',
      });
    }
    expect(await itemsByKind(owner.sub)).toEqual(before);
    expect(await headObject('results', h!.imageKey)).toBeDefined();
    expect(await headObject('results', h!.thumbnailKey)).toBeDefined();
    expect((await listPage(owner, 'all')).items).toEqual([
      expect.objectContaining({ id: h!.id, isFavorite: false }),
    ]);
    // The intruder deleting "their" data touches none of the owner's.
    expect((await api(gatewayUrl, intruder.idToken, 'DELETE', '/api/me/data')).status).toBe(200);
    expect(await itemsByKind(owner.sub)).toEqual(before);
    expect(await headObject('results', h!.imageKey)).toBeDefined();
  });
});
