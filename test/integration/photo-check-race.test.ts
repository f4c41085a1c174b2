import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { photoCheckSk, userPk } from '../../functions/adapters/support/keys';
import * as storage from '../../functions/adapters/storage';
import { analyzePhoto } from '../../functions/use-cases/check-photos';
import { storageSettings } from '../../functions/config/storage';
import { handler } from '../../functions/http/create-photo-checks';
import { cosine, decodeDescriptor } from '../../functions/domain/likeness';
import { judgeUploads, type JudgedPhoto } from '../../functions/use-cases/check-photos';
import { createTestUser } from '../helpers/cognito';
import { httpEvent } from '../helpers/events';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';

/*
 * The photo-check cache race (issue: "the check analyses the bytes it stores the result for"): the route reads an
 * upload's ETag with HeadObject, looks up its cache by it, then GETs the bytes to analyse. Here the upload is
 * replaced in s3rver right after the real HeadObject answered, so the GET returns other bytes under another ETag.
 * What is stored must describe the bytes analysed, under their own ETag; PrepareReferences, which reads the upload
 * and finds the stored check by the ETag of its own GET, must then judge the photo it actually reads.
 */

/** Runs once right after the next HeadObject of `key` answered (the window between the route's HEAD and GET). */
const afterHead = new Map<string, () => Promise<void>>();

vi.mock('../../functions/adapters/storage', async (importOriginal) => {
  const original = await importOriginal<typeof storage>();
  return {
    ...original,
    headObject: async (...args: Parameters<typeof original.headObject>) => {
      const head = await original.headObject(...args);
      const hook = afterHead.get(args[1]);
      afterHead.delete(args[1]);
      await hook?.();
      return head;
    },
  };
});

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

afterEach(() => afterHead.clear());

describe('a photo replaced between the check route’s HeadObject and GetObject', () => {
  it('stores the result of the bytes analysed under their own ETag, and PrepareReferences judges those bytes', async () => {
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    const [key] = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);
    const replacement = fixturePhoto('biden.jpg').bytes;
    const first = (await storage.getObject('uploads', key!))!.etag!;
    afterHead.set(key!, () => storage.putObject('uploads', key!, replacement, 'image/jpeg'));

    const res = await handler(httpEvent('create-photo-checks', { body: { keys: [key] }, sub: user.sub }));
    expect(res.statusCode).toBe(200);
    expect(afterHead.has(key!)).toBe(false); // the replacement happened between the two calls

    const current = (await storage.getObject('uploads', key!))!.etag!;
    expect(current).not.toBe(first);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(user.sub), SK: photoCheckSk(key!) },
      }),
    );
    // Keyed by the version analysed, and describing it: biden's face, not obama's.
    expect(Item?.etag).toBe(current);
    const [biden, obama] = await Promise.all([
      analyzePhoto(replacement),
      analyzePhoto(fixturePhoto('obama.jpg').bytes),
    ]);
    const stored = decodeDescriptor(Item!.descriptor as string);
    expect(cosine(stored, biden.facts.descriptor!)).toBeGreaterThan(0.99);
    expect(cosine(stored, obama.facts.descriptor!)).toBeLessThan(0.9);
    expect(Item?.framing).toMatchObject({ width: biden.framing!.width, height: biden.framing!.height });

    // PrepareReferences reads biden's bytes and finds the check stored for exactly them: no model run.
    const { results, models } = await judgeUploads(user.sub, [key!]);
    expect(models).toBe(0);
    const photo = results[0] as JudgedPhoto;
    expect(photo.bytes.equals(replacement)).toBe(true);
    expect(cosine(photo.facts.descriptor!, biden.facts.descriptor!)).toBeGreaterThan(0.99);

    // Put back to obama: the stored biden check is not reused for obama's bytes (another ETag), they are analysed.
    await storage.putObject('uploads', key!, fixturePhoto('obama.jpg').bytes, 'image/jpeg');
    const again = await judgeUploads(user.sub, [key!]);
    expect(again.models).toBe(1);
    expect(
      cosine((again.results[0] as JudgedPhoto).facts.descriptor!, obama.facts.descriptor!),
    ).toBeGreaterThan(0.99);
  });
});
