import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { photoCheckSk, userPk } from '../../functions/adapters/support/keys';
import { cachedPhotoChecks, savePhotoFacts } from '../../functions/adapters/photo-checks';
import { getObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import type { StoredFraming } from '../../functions/domain/framing';
import { judgeUploads, type JudgedPhoto } from '../../functions/use-cases/check-photos';
import { referenceCrop } from '../../functions/use-cases/prepare-references';
import { createTestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';

/*
 * PrepareReferences' photos (functions/workflow/reference-photos.ts) on the shared local stack: an upload the photo
 * check analysed is judged and cropped from the stored check, with no model run; one without a complete stored
 * check goes through the face models.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const judged = (results: Awaited<ReturnType<typeof judgeUploads>>['results']) =>
  results.map((r) => {
    if (!('facts' in r)) throw new Error(`photo ${r.index}: ${r.problem}`);
    return r as JudgedPhoto;
  });

describe('reference photos of PrepareReferences', () => {
  it('reuse what the photo check stored (facts, descriptor, face landmarks), and run the models only without it', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const keys = await uploadPhotos(gatewayUrl, user.idToken, ['obama.jpg', 'obama2.jpg'].map(fixturePhoto));

    // Nothing stored yet: the models run here, on both.
    const before = await judgeUploads(user.sub, keys);
    expect(before.models).toBe(2);
    const analysed = judged(before.results);
    expect(analysed.every((p) => p.framing && p.facts.descriptor?.length === 128)).toBe(true);

    expect((await api(gatewayUrl, user.idToken, 'POST', '/api/photo-checks', { keys })).status).toBe(200);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(user.sub), SK: photoCheckSk(keys[0]!) },
      }),
    );
    const stored = Item?.framing as StoredFraming;
    expect(stored).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });

    // Checked: no model runs, and the stored facts are the ones the models find.
    const after = await judgeUploads(user.sub, keys);
    expect(after.models).toBe(0);
    const reused = judged(after.results);
    for (const [i, photo] of reused.entries()) {
      const fresh = analysed[i]!;
      expect(photo.image).toBeUndefined();
      expect(photo.facts.faces).toHaveLength(fresh.facts.faces.length);
      expect(photo.framing!.width).toBe(fresh.framing!.width);
      expect(photo.framing!.chin.y).toBeCloseTo(fresh.framing!.chin.y, 0);
      expect(photo.framing!.eyes[0].x).toBeCloseTo(fresh.framing!.eyes[0].x, 0);
      expect(photo.facts.descriptor![0]).toBeCloseTo(fresh.facts.descriptor![0]!, 3);
    }
    const [fromModels, fromStored] = await Promise.all([
      referenceCrop(analysed[0]!),
      referenceCrop(reused[0]!),
    ]);
    expect(fromStored.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(Math.abs(fromStored.length - fromModels.length) / fromModels.length).toBeLessThan(0.05);

    // The crop follows the stored landmarks: a face stored elsewhere gives another crop.
    const etag = (await getObject('uploads', keys[0]!))!.etag!;
    const moved: StoredFraming = {
      ...stored,
      eyes: [
        { x: stored.eyes[0].x / 2, y: stored.eyes[0].y / 2 },
        { x: stored.eyes[1].x / 2, y: stored.eyes[1].y / 2 },
      ],
      forehead: { x: stored.forehead.x / 2, y: stored.forehead.y / 2 },
      chin: { x: stored.chin.x / 2, y: stored.chin.y / 2 },
    };
    const facts = (await cachedPhotoChecks(user.sub, [{ key: keys[0]!, etag }])).get(keys[0]!)!.facts;
    await savePhotoFacts(user.sub, keys[0]!, etag, facts, moved);
    const shifted = judged((await judgeUploads(user.sub, keys.slice(0, 1))).results)[0]!;
    expect(shifted.framing).toEqual(moved);
    expect((await referenceCrop(shifted)).equals(fromStored)).toBe(false);

    // A check stored before the landmarks were kept (older data): that photo alone goes through the models.
    await savePhotoFacts(user.sub, keys[0]!, etag, facts);
    const older = await judgeUploads(user.sub, keys);
    expect(older.models).toBe(1);
    expect(judged(older.results)[0]!.framing!.chin.y).toBeCloseTo(analysed[0]!.framing!.chin.y, 0);
  });
});
