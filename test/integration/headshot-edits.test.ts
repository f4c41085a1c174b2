import { PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { getHeadshot } from '../../functions/adapters/headshots/records';
import { listHeadshotVersions } from '../../functions/adapters/headshots/versions';
import { getUser } from '../../functions/adapters/ledger';
import { getObjectBytes, putObject } from '../../functions/adapters/storage';
import { documentClient } from '../../functions/adapters/support/aws';
import { headshotSk, userPk } from '../../functions/adapters/support/keys';
import { editPrompt } from '../../functions/domain/edit-prompts';
import type { EditRequest } from '../../functions/domain/edits';
import {
  headshotImageKey,
  headshotThumbnailKey,
  headshotVariantKey,
} from '../../functions/domain/object-keys';
import { DEFAULT_OPENAI_IMAGE_MODEL } from '../../functions/domain/openai-image-models';
import type { TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, type GenerationView } from '../helpers/generation';
import { generationItem } from '../helpers/generation-items';
import { openAiErrors, useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * Issue 36's backend acceptance for edits, against the strict OpenAI stand-in with the default model: a seeded
 * headshot (its generation item and its original file, not a full generation) of a user whose reference photos are
 * stored; each edit is a one-slot generation through the real workflow, sending the headshot itself. One shared
 * stack, the edits one after another (one generation in flight per user).
 */

const gen = useOpenAiGenerationStack();

/** A headshot of the user's own photos, as the workflow would have saved it: its item and its original PNG. */
async function seededHeadshot(): Promise<{ user: TestUser; headshotId: string; originalKey: string }> {
  const { user, keys } = await gen.userWithPhotos();
  const { id: generationId, item } = generationItem(user.sub, { status: 'succeeded', referenceKeys: keys });
  const headshotId = ulid();
  const originalKey = headshotVariantKey(user.sub, generationId, 0, 'original');
  // The provider's canvas: a portrait of the customer (their first photo on the 4:5 canvas).
  const original = await sharp(fixturePhoto('obama.jpg').bytes)
    .resize(1024, 1280, { fit: 'cover', position: 'top' })
    .png()
    .toBuffer();
  await putObject('results', originalKey, original, 'image/png');
  const table = process.env.TABLE_NAME!;
  await documentClient().send(new PutCommand({ TableName: table, Item: item }));
  await documentClient().send(
    new PutCommand({
      TableName: table,
      Item: {
        PK: userPk(user.sub),
        SK: headshotSk(headshotId),
        type: 'headshot',
        id: headshotId,
        userId: user.sub,
        generationId,
        slot: 0,
        style: 'professional',
        background: 'office',
        imageKey: headshotImageKey(user.sub, generationId, 0),
        thumbnailKey: headshotThumbnailKey(user.sub, generationId, 0),
        variants: {
          portrait: {
            key: headshotVariantKey(user.sub, generationId, 0, 'portrait'),
            width: 1024,
            height: 1280,
            bytes: 1,
          },
          original: { key: originalKey, width: 1024, height: 1280, bytes: original.length },
        },
        isFavorite: false,
        likeness: 90,
        provider: 'openai',
        creditsUsed: 1,
        createdAt: new Date().toISOString(),
      },
    }),
  );
  return { user, headshotId, originalKey };
}

/** Starts an edit and waits for its generation to end. */
async function edit(user: TestUser, headshotId: string, request: EditRequest) {
  const res = await api(gen.stack.gatewayUrl, user.idToken, 'POST', `/api/headshots/${headshotId}/edits`, {
    edit: request,
  });
  expect(res.status).toBe(202);
  const started = (await res.json()) as { id: string; creditsReserved: number };
  expect(started.creditsReserved).toBe(1);
  // The generation view as the contract has it since issue 36: an edit names what it changes and its headshot.
  return (await pollGeneration(gen.stack.gatewayUrl, user.idToken, started.id)).final as GenerationView & {
    edit?: Record<string, unknown> | null;
  };
}

describe('POST /api/headshots/{id}/edits against the OpenAI stand-in', () => {
  it('a custom colour, an outfit and an upscale each deliver a new version for 1 credit, sending the headshot itself; the original stays', async () => {
    const { user, headshotId, originalKey } = await seededHeadshot();
    const before = await getObjectBytes('results', originalKey);
    const requests: EditRequest[] = [
      { kind: 'background', background: { type: 'colour', colour: '#1f6feb' } },
      { kind: 'outfit', outfit: 'suit-and-tie' },
      { kind: 'upscale' },
    ];
    for (const [i, request] of requests.entries()) {
      const final = await edit(user, headshotId, request);
      expect(final).toMatchObject({ status: 'succeeded', headshotsExpected: 1, creditsRefunded: 0 });
      expect(final.edit).toMatchObject({ ...request, headshotId });
      const call = gen.fake.calls.at(-1)!;
      expect(call).toMatchObject({ model: DEFAULT_OPENAI_IMAGE_MODEL, prompt: editPrompt(request) });
      // One input image: the headshot's original file, not the reference photos.
      expect(call.images).toHaveLength(1);
      expect((await getUser(user.sub))?.credits).toBe(6 - (i + 1));
    }
    const versions = await listHeadshotVersions(user.sub, headshotId);
    expect(versions.map((v) => v.edit)).toEqual(requests);
    expect(versions.every((v) => v.transparent === false && (v.likeness ?? 0) > 0)).toBe(true);
    expect(await getObjectBytes('results', originalKey)).toEqual(before);
    expect(await getHeadshot(user.sub, headshotId)).toMatchObject({ id: headshotId, versionCount: 3 });
    const gallery = await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/headshots');
    expect(((await gallery.json()) as { items: { id: string }[] }).items.map((h) => h.id)).toEqual([
      headshotId,
    ]);
  });

  it("a transparent background's version downloads as a PNG with an alpha channel", async () => {
    const { user, headshotId } = await seededHeadshot();
    const final = await edit(user, headshotId, { kind: 'background', background: { type: 'transparent' } });
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
    expect(gen.fake.calls.at(-1)!.background).toBe('transparent');
    const listed = await api(
      gen.stack.gatewayUrl,
      user.idToken,
      'GET',
      `/api/headshots/${headshotId}/versions`,
    );
    const { versions } = (await listed.json()) as { versions: { id: string; transparent: boolean }[] };
    expect(versions).toMatchObject([{ transparent: true }]);
    const download = await api(
      gen.stack.gatewayUrl,
      user.idToken,
      'GET',
      `/api/headshots/${headshotId}/download?variant=original&version=${versions[0]!.id}`,
    );
    expect(download.status).toBe(200);
    const { url, fileName } = (await download.json()) as { url: string; fileName: string };
    expect(fileName).toMatch(/\.png$/);
    const file = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(await sharp(file).metadata()).toMatchObject({ format: 'png', hasAlpha: true, channels: 4 });
  });

  it("a refused edit and an edit answering someone else's face deliver nothing and give the credit back", async () => {
    const { user, headshotId } = await seededHeadshot();
    gen.fake.answer = () => openAiErrors.moderation;
    const refused = await edit(user, headshotId, { kind: 'retouch', strength: 'polished' });
    expect(refused).toMatchObject({ status: 'failed', headshots: [], creditsRefunded: 1 });
    expect((await getUser(user.sub))?.credits).toBe(6);

    gen.fake.answer = () => ({ image: fixturePhoto('biden.jpg').bytes });
    const stranger = await edit(user, headshotId, { kind: 'reframe', framing: 'wider' });
    expect(stranger).toMatchObject({ status: 'failed', headshots: [], creditsRefunded: 1 });
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await listHeadshotVersions(user.sub, headshotId)).toEqual([]);
  });
});
