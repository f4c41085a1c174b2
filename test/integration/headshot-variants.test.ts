import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getHeadshot } from '../../functions/adapters/headshots/records';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { getUser, grantCredits } from '../../functions/adapters/ledger';
import { headObject } from '../../functions/adapters/storage';
import { resetConfigForTests } from '../../functions/config/settings';
import type { Headshot } from '../../functions/contracts/headshot';
import { type TestUser } from '../helpers/cognito';
import { api, pollGeneration } from '../helpers/generation';
import { useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * Issue 28 against the strict OpenAI stand-in (the real `openai` SDK, every parameter checked against the model
 * table): each slot asks the default model for the 4:5 portrait canvas, and every headshot is stored as a 1024×1024
 * square, a 4:5 portrait and the original, each with its pixels, downloadable by name, deleted with the headshot.
 * The high-resolution option asks for the larger canvas only on a model that takes it, at 2 credits per headshot.
 */

const gen = useOpenAiGenerationStack();

/** A signed-up user (6 free credits, plus `extra` bought) with 3 uploaded photos. */
async function userWithPhotos(extra = 0): Promise<{ user: TestUser; keys: string[] }> {
  const created = await gen.userWithPhotos();
  if (extra > 0)
    await grantCredits({ sub: created.user.sub, amount: extra, ref: `seed-${created.user.sub}` });
  return created;
}

const post = (user: TestUser, body: Record<string, unknown>) =>
  api(gen.stack.gatewayUrl, user.idToken, 'POST', '/api/generations', body);

/** `POST /api/generations` for professional headshots on the studio background at the high resolution. */
const postHighResolution = (user: TestUser, keys: string[]) =>
  post(user, { style: 'professional', background: 'studio', referenceKeys: keys, resolution: 'high' });

/** Whether `GET /api/me` offers `user` the high-resolution option (the configured model can make it). */
async function offersHighResolution(user: TestUser): Promise<boolean> {
  const res = await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
  return ((await res.json()) as { highResolution: boolean }).highResolution;
}

/** A headshot's files as `[variant, width, height]`, in the order the API lists them. */
const variantSizes = (headshot: Headshot) => headshot.variants.map((v) => [v.variant, v.width, v.height]);

/** Downloads one file of a headshot through `GET /headshots/{id}/download`: its name, type and pixels. */
async function download(user: TestUser, headshot: Headshot, variant: string) {
  const res = await api(
    gen.stack.gatewayUrl,
    user.idToken,
    'GET',
    `/api/headshots/${headshot.id}/download?variant=${variant}`,
  );
  expect(res.status, variant).toBe(200);
  const { url, fileName } = (await res.json()) as { url: string; fileName: string };
  const file = await fetch(url);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
  const bytes = Buffer.from(await file.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return {
    fileName,
    type: file.headers.get('content-type'),
    format: meta.format,
    width: meta.width,
    height: meta.height,
  };
}

describe('every headshot as a square, a portrait and the original (default model)', () => {
  it('asks for 1024x1280 and stores each file with its dimensions, named by what it is, deleted with it', async () => {
    const { user, keys } = await userWithPhotos();
    const res = await post(user, { style: 'business-casual', background: 'office', referenceKeys: keys });
    expect(res.status).toBe(202);
    const { id, creditsReserved } = (await res.json()) as { id: string; creditsReserved: number };
    expect(creditsReserved).toBe(6);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });

    expect(gen.fake.refused).toEqual([]);
    expect(gen.fake.calls).toHaveLength(6);
    for (const call of gen.fake.calls) {
      expect(call).toMatchObject({ model: 'gpt-image-2.6-sunburst', size: '1024x1280', outputFormat: 'png' });
    }

    // Each headshot's files: the square and the portrait as JPEG, the original as the model's PNG.
    const files = [
      { variant: 'square', extension: 'jpg', type: 'image/jpeg', format: 'jpeg', width: 1024, height: 1024 },
      {
        variant: 'portrait',
        extension: 'jpg',
        type: 'image/jpeg',
        format: 'jpeg',
        width: 1024,
        height: 1280,
      },
      { variant: 'original', extension: 'png', type: 'image/png', format: 'png', width: 1024, height: 1280 },
    ];
    for (const headshot of final.headshots) {
      const n = headshot.slot + 1;
      expect(variantSizes(headshot)).toEqual(files.map((f) => [f.variant, f.width, f.height]));
      for (const { variant, extension, ...file } of files) {
        expect(await download(user, headshot, variant)).toEqual({
          fileName: `headshot-business-casual-office-${n}-${variant}.${extension}`,
          ...file,
        });
      }
    }

    // The item records the files; deleting the headshot deletes all four.
    const item = (await getHeadshot(user.sub, final.headshots[0]!.id))!;
    expect(item.variants).toMatchObject({
      portrait: { width: 1024, height: 1280 },
      original: { width: 1024, height: 1280 },
    });
    const stored = [
      item.imageKey,
      item.thumbnailKey,
      item.variants!.portrait.key,
      item.variants!.original.key,
    ];
    for (const key of stored) expect(await headObject('results', key), key).toBeDefined();
    const deleted = await api(gen.stack.gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${item.id}`);
    expect(deleted.status).toBe(204);
    for (const key of stored) expect(await headObject('results', key), key).toBeUndefined();
  }, 180_000);
});

describe('the high-resolution option', () => {
  it('asks the default model for 1664x2080 at 2 credits per headshot; the square stays 1024', async () => {
    const { user, keys } = await userWithPhotos(6);
    expect(await offersHighResolution(user)).toBe(true);
    gen.fake.answer = (call) =>
      call.index === 0
        ? {
            status: 400,
            body: {
              error: {
                message: 'x',
                type: 'image_generation_user_error',
                param: null,
                code: 'moderation_blocked',
              },
            },
          }
        : 'image';
    const res = await postHighResolution(user, keys);
    expect(res.status).toBe(202);
    const { id, creditsReserved } = (await res.json()) as { id: string; creditsReserved: number };
    expect(creditsReserved).toBe(12);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    // One slot refused by the provider: its 2 credits come back, as any slot's credit does.
    expect(final).toMatchObject({ status: 'partial', creditsRefunded: 2 });
    expect((await getUser(user.sub))?.credits).toBe(2);
    expect(gen.fake.calls.every((call) => call.size === '1664x2080')).toBe(true);
    const headshot = final.headshots[0]!;
    expect(variantSizes(headshot)).toEqual([
      ['square', 1024, 1024],
      ['portrait', 1664, 2080],
      ['original', 1664, 2080],
    ]);
    expect(await download(user, headshot, 'original')).toMatchObject({
      format: 'png',
      width: 1664,
      height: 2080,
    });
    expect(await download(user, headshot, 'square')).toMatchObject({ width: 1024, height: 1024 });
    expect((await getHeadshot(user.sub, headshot.id))?.creditsUsed).toBe(2);
  }, 180_000);

  it('is neither offered nor sold on a model that cannot make it (gpt-image-1.5): nothing is spent', async () => {
    const { user, keys } = await userWithPhotos(6);
    process.env.OPENAI_IMAGE_MODEL = 'gpt-image-1.5';
    resetConfigForTests();
    resetImageProviderForTests();
    try {
      expect(await offersHighResolution(user)).toBe(false);
      const res = await postHighResolution(user, keys);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'HIGH_RESOLUTION_UNAVAILABLE',
      );
      expect((await getUser(user.sub))?.credits).toBe(12);
      expect(gen.fake.calls).toHaveLength(0);
      // Standard resolution on that model: its standard portrait canvas, 1024x1536.
      gen.fake.clock = () => new Date('2026-11-26T12:00:00Z');
      const started = await post(user, { style: 'professional', background: 'studio', referenceKeys: keys });
      expect(started.status).toBe(202);
      const { id } = (await started.json()) as { id: string };
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      expect(final.status).toBe('succeeded');
      expect(gen.fake.calls.map((call) => call.size)).toEqual(Array(6).fill('1024x1536'));
      expect(variantSizes(final.headshots[0]!)).toEqual([
        ['square', 1024, 1024],
        ['portrait', 1024, 1280],
        ['original', 1024, 1536],
      ]);
    } finally {
      delete process.env.OPENAI_IMAGE_MODEL;
      gen.fake.clock = () => new Date();
      resetConfigForTests();
      resetImageProviderForTests();
    }
  }, 180_000);
});
