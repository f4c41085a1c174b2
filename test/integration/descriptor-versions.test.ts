import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { getGeneration } from '../../functions/adapters/generations';
import { photoCheckSk, userPk } from '../../functions/adapters/support/keys';
import { cachedPhotoChecks } from '../../functions/adapters/photo-checks';
import { getObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import {
  decodeDescriptor,
  DEFAULT_LIKENESS_THRESHOLD,
  DESCRIPTOR_MODEL,
  encodeDescriptor,
  likenessOf,
  normalize,
} from '../../functions/domain/likeness';
import { analyzeFaces, decodeRgb } from '../../functions/adapters/support/vision-models/faces';
import { currentReferenceDescriptor } from '../../functions/use-cases/reference-descriptor';
import { judgeUploads, type JudgedPhoto } from '../../functions/use-cases/check-photos';
import { signedUpUser } from '../helpers/gallery';
import { generationItem } from '../helpers/generation-items';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';

/*
 * Versioned descriptors (issue 24, point 3; docs/decisions/002-identity-model.md): every stored descriptor names its
 * model, and one of another model — or unnamed, as Human's faceres descriptors were stored — is recomputed by the
 * current model, never compared with its descriptors.
 */

const { gatewayUrl } = inject('localStack');
const table = () => storageSettings().TABLE_NAME;

/** A faceres-shaped descriptor (1024 values, unit length), as items written before the switch hold. */
const legacyDescriptor = () => normalize(Array.from({ length: 1024 }, (_, i) => Math.sin(i + 1)));

describe('descriptors of an earlier model', () => {
  it('a cached photo check without the model name, or of another model, is analysed again by the current model', async () => {
    const user = await signedUpUser();
    const keys = await uploadPhotos(gatewayUrl, user.idToken, ['obama.jpg', 'obama2.jpg'].map(fixturePhoto));
    const uploads = await Promise.all(
      keys.map(async (key) => ({ key, etag: (await getObject('uploads', key))!.etag! })),
    );
    // Items as a check before the switch stored them: same ETag, a faceres descriptor; one unnamed, one named.
    for (const [i, { key, etag }] of uploads.entries()) {
      await documentClient().send(
        new PutCommand({
          TableName: table(),
          Item: {
            PK: userPk(user.sub),
            SK: photoCheckSk(key),
            type: 'photo-check',
            etag,
            facts: { width: 900, height: 1100, readable: true, faces: [] },
            descriptor: encodeDescriptor(legacyDescriptor()),
            ...(i === 1 ? { descriptorModel: 'faceres@1' } : {}),
            createdAt: new Date().toISOString(),
            expiresAt: Math.floor(Date.now() / 1000) + 3600,
          },
        }),
      );
    }
    expect((await cachedPhotoChecks(user.sub, uploads)).size).toBe(0);

    // PrepareReferences runs the models on both instead of judging from the old items.
    const judged = await judgeUploads(user.sub, keys);
    expect(judged.models).toBe(2);
    for (const r of judged.results) expect((r as JudgedPhoto).facts.descriptor).toHaveLength(128);

    // The check route analyses them again and stores the current model's descriptor, named.
    const checked = await api(gatewayUrl, user.idToken, 'POST', '/api/photo-checks', { keys });
    expect(checked.status).toBe(200);
    for (const { key } of uploads) {
      const { Item } = await documentClient().send(
        new GetCommand({ TableName: table(), Key: { PK: userPk(user.sub), SK: photoCheckSk(key) } }),
      );
      expect(Item?.descriptorModel).toBe(DESCRIPTOR_MODEL);
      expect(decodeDescriptor(Item!.descriptor as string)).toHaveLength(128);
    }
    const cached = await cachedPhotoChecks(user.sub, uploads);
    expect(cached.size).toBe(2);
    expect((await judgeUploads(user.sub, keys)).models).toBe(0);
  });

  it('an in-flight generation whose reference descriptor is of another model gets it recomputed from its references', async () => {
    const sub = `versions-${randomUUID()}`;
    const { id, item } = generationItem(sub, { background: 'studio', referenceKeys: [] });
    // Prepared before the switch: a faceres descriptor, no model name.
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...item, referenceDescriptor: encodeDescriptor(legacyDescriptor()) },
      }),
    );
    const references = ['obama.jpg', 'obama2.jpg', 'obama3.jpg'].map((n) => fixturePhoto(n).bytes);

    const recomputed = await currentReferenceDescriptor((await getGeneration(sub, id))!, references);
    expect(recomputed).toBeDefined();
    expect(decodeDescriptor(recomputed!)).toHaveLength(128);
    // Saved on the generation for its other slots, named.
    const saved = (await getGeneration(sub, id))!;
    expect(saved.referenceDescriptorModel).toBe(DESCRIPTOR_MODEL);
    expect(saved.referenceDescriptor).toBe(recomputed);
    // Measured against it, the customer passes the gate and another person does not.
    const likeness = async (name: string) =>
      likenessOf(
        (await analyzeFaces(await decodeRgb(fixturePhoto(name).bytes))).faces[0]!.descriptor,
        decodeDescriptor(recomputed!),
      );
    expect(await likeness('obama-720p.jpg')).toBeGreaterThanOrEqual(DEFAULT_LIKENESS_THRESHOLD);
    expect(await likeness('biden.jpg')).toBeLessThan(DEFAULT_LIKENESS_THRESHOLD);

    // A descriptor of the current model is used as stored: nothing is recomputed.
    expect(await currentReferenceDescriptor(saved, [])).toBe(recomputed);
    // A generation of another named model is recomputed too (and one without a descriptor keeps skipping the gate).
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: 'SET referenceDescriptorModel = :m',
        ExpressionAttributeValues: { ':m': 'faceres@1' },
      }),
    );
    const again = await currentReferenceDescriptor((await getGeneration(sub, id))!, references.slice(0, 1));
    expect(again).not.toBe(recomputed);
    expect(decodeDescriptor(again!)).toHaveLength(128);
    const { referenceDescriptor: _, ...withoutDescriptor } = saved;
    expect(await currentReferenceDescriptor(withoutDescriptor, references)).toBeUndefined();
  });
});
