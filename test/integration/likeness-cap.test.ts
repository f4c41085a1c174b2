import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { getUser, grantCredits, listLedger } from '../../functions/adapters/ledger';
import { storageSettings } from '../../functions/config/storage';
import { dayWindowStart, generationStartMs } from '../../functions/domain/likeness-cap';
import { type TestUser } from '../helpers/cognito';
import {
  api,
  fixturePhoto,
  pollGeneration,
  startGeneration,
  uploadPhotos,
  type GenerationView,
} from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * The likeness guarantee cannot be farmed (docs/decisions/004-likeness-retry-cap.md): the OpenAI stand-in answers
 * every edit of Obama's photos with Biden's portrait, so no headshot ever passes the likeness check, and the calls
 * the stand-in receives are the provider calls we would pay for. Real DynamoDB Local, the real ASL, the real SDK.
 */

const gen = useOpenAiGenerationStack();
const stranger = fixturePhoto('biden.jpg').bytes;

const post = (user: TestUser, path: string, body?: unknown) =>
  api(gen.stack.gatewayUrl, user.idToken, 'POST', path, body);
const startBody = (keys: string[]) => ({ style: 'professional', background: 'studio', referenceKeys: keys });
const generationCount = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'generation').length;

describe('a free account replaying photos whose headshots never look like it', () => {
  it('gets at most 6 + 6 provider calls in the day, is told why and asked for other photos, and keeps its credits', async () => {
    gen.fake.answer = () => ({ image: stranger });
    const { user, keys } = await gen.userWithPhotos();

    // The first generation: 6 first calls, and retries only until the third failed check stops it.
    const first = await startGeneration(gen.stack.gatewayUrl, user, keys);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, first);
    expect(final).toMatchObject({ status: 'failed', headshots: [], creditsRefunded: 6 });
    expect(final.error).toEqual({
      code: 'LIKENESS_MISMATCH',
      message:
        "Your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 6 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
    });
    const afterFirst = gen.fake.calls.length;
    console.info('provider calls of the first generation', afterFirst);
    expect(afterFirst).toBeGreaterThanOrEqual(6);
    expect(afterFirst).toBeLessThanOrEqual(8);
    expect((await getUser(user.sub))?.credits).toBe(6);

    // The same photos again, and the same files uploaded again under new keys: refused, nothing spent.
    const reuploaded = await uploadPhotos(
      gen.stack.gatewayUrl,
      user.idToken,
      ['obama3.jpg', 'obama.jpg', 'obama2.jpg'].map(fixturePhoto),
    );
    for (const replay of [keys, reuploaded]) {
      const res = await post(user, '/api/generations', startBody(replay));
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: {
          code: 'PHOTOS_DONT_MATCH',
          message:
            "These photos didn't give us headshots that look like you, so we won't use them again. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
        },
      });
    }
    expect(gen.fake.calls).toHaveLength(afterFirst);
    expect(await generationCount(user.sub)).toBe(1);

    // Other photos, again and again: served until the day's 12 calls are used, then refused before any spend.
    const otherSets = [
      ['obama3.jpg', 'obama-rotated.jpg', 'obama-12mp.jpg'],
      ['obama.jpg', 'obama3.jpg'],
      ['obama2.jpg', 'obama-rotated.jpg'],
      ['obama-720p.jpg', 'obama-12mp.jpg'],
      ['obama.jpg', 'obama-rotated.jpg'],
    ];
    let refusal: { status: number; body: { error: { code: string; details?: unknown } } } | undefined;
    const outcomes: GenerationView[] = [];
    for (const photos of otherSets) {
      const setKeys = await uploadPhotos(gen.stack.gatewayUrl, user.idToken, photos.map(fixturePhoto));
      const res = await post(user, '/api/generations', startBody(setKeys));
      if (res.status !== 202) {
        refusal = { status: res.status, body: (await res.json()) as never };
        break;
      }
      const { id } = (await res.json()) as { id: string };
      const polled = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      outcomes.push(polled.final);
      expect(gen.fake.calls.length).toBeLessThanOrEqual(12);
    }
    console.info(
      'later generations',
      outcomes.map((o) => o.error?.code),
      'provider calls in all',
      gen.fake.calls.length,
    );
    expect(gen.fake.calls.length).toBeLessThanOrEqual(12);
    expect(outcomes.length).toBeGreaterThanOrEqual(1);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 'failed', creditsRefunded: 6 });
      expect(['LIKENESS_MISMATCH', 'LIKENESS_LIMIT']).toContain(outcome.error?.code);
    }
    // The day's calls are used: the next start is refused before anything is spent, until the day ends.
    expect(refusal).toMatchObject({
      status: 429,
      body: { error: { code: 'QUOTA_EXCEEDED', details: { quota: 'likeness-attempts' } } },
    });
    expect(gen.fake.calls.length).toBe(12);
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await generationCount(user.sub)).toBe(1 + outcomes.length);
  }, 300_000);
});

describe('Regenerate (1 credit) with photos that stop matching', () => {
  it('gets no likeness retry beyond the cap: 2 calls per credit paid for in the day, then 429', async () => {
    const { user, keys } = await gen.userWithPhotos();
    const id = await startGeneration(gen.stack.gatewayUrl, user, keys);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });
    expect(gen.fake.calls).toHaveLength(6);
    // One credit bought: 7 credits paid for today, so 14 provider calls at most.
    await grantCredits({ sub: user.sub, amount: 1, ref: `test-grant-${user.sub}` });

    gen.fake.answer = () => ({ image: stranger });
    const headshotId = final.headshots[0]!.id;
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 8; attempt++) {
      const res = await post(user, `/api/headshots/${headshotId}/regenerate`);
      if (res.status !== 202) {
        refused = res;
        break;
      }
      const { id: regeneration } = (await res.json()) as { id: string };
      const polled = await pollGeneration(gen.stack.gatewayUrl, user.idToken, regeneration);
      // One slot: its headshot and one retry, both someone else, refunded (2 failed checks do not stop a set).
      expect(polled.final).toMatchObject({ status: 'failed', creditsRefunded: 1 });
      expect(gen.fake.calls.length).toBeLessThanOrEqual(14);
    }
    expect(refused?.status).toBe(429);
    expect(await refused?.json()).toMatchObject({
      error: { code: 'QUOTA_EXCEEDED', details: { quota: 'likeness-attempts' } },
    });
    expect(gen.fake.calls).toHaveLength(14);
    expect((await getUser(user.sub))?.credits).toBe(1);
  }, 300_000);
});

describe('calls the provider did not bill', () => {
  it('go back to the day: 7 answers of 429 before 6 images still deliver all 6 on a 12-call allowance', async () => {
    const { user, keys } = await gen.userWithPhotos();
    gen.fake.answer = (call) => (call.index < 7 ? openAiErrors.rateLimited : 'image');
    const id = await startGeneration(gen.stack.gatewayUrl, user, keys);
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    // Had the 429s stayed counted, 7 + 6 calls would pass the free account's 12 and a slot would be refused.
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0, error: null });
    expect(gen.fake.calls).toHaveLength(13);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: {
          PK: `USER#${user.sub}`,
          SK: `QUOTA#provider-calls#${dayWindowStart(generationStartMs(id))}`,
        },
        ConsistentRead: true,
      }),
    );
    expect(Item).toMatchObject({ allowance: 12, calls: 6 });
  }, 300_000);
});
