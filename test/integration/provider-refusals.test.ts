import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { safetyIdentifier } from '../../functions/domain/provider-refusals';
import { type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos, type PhotoFile } from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * Refusals cost the refuser (docs/decisions/018-provider-refusals.md, issue 33): the OpenAI stand-in answers every
 * edit as OpenAI's safety system does (400 `moderation_blocked`), and a free account starts again and again — the
 * same photos, the same files uploaded again, then photos re-encoded so their bytes are new. The stand-in's calls are
 * the calls OpenAI would see. One call in flight at a time, so a stop ends the slots still waiting. Real DynamoDB
 * Local, the real ASL, the real SDK.
 */

const gen = useOpenAiGenerationStack(() => ({ PROVIDER_MAX_CONCURRENCY: '1' }));
const PHOTOS = ['obama.jpg', 'obama2.jpg', 'obama-720p.jpg'];

const OTHER_PHOTOS =
  'Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.';

const post = (user: TestUser, body: unknown) =>
  api(gen.stack.gatewayUrl, user.idToken, 'POST', '/api/generations', body);
const startBody = (keys: string[]) => ({ style: 'professional', background: 'studio', referenceKeys: keys });
const generationsSpent = async (sub: string) =>
  (await listLedger(sub)).filter((e) => e.reason === 'generation').length;

/** The fixture photos with new bytes (re-encoded at `quality`): the same person, another photo set. */
async function reencoded(quality: number): Promise<PhotoFile[]> {
  return Promise.all(
    PHOTOS.map(async (name) => ({
      ...fixturePhoto(name),
      bytes: await sharp(fixturePhoto(name).bytes).jpeg({ quality }).toBuffer(),
    })),
  );
}

/** One start: refused up front (its status and code), or its generation polled to its end. */
async function start(user: TestUser, keys: string[]) {
  const res = await post(user, startBody(keys));
  if (res.status !== 202) {
    const { error } = (await res.json()) as { error: { code: string; message: string; details?: unknown } };
    return { status: res.status, error };
  }
  const { id } = (await res.json()) as { id: string };
  const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
  return { status: 202, final };
}

describe('a free account whose every provider call the safety system refuses', () => {
  it('gets every credit back, is refused up front by its fourth start, and the provider sees at most 12 calls', async () => {
    gen.fake.answer = () => openAiErrors.moderation;
    const { user, keys } = await gen.userWithPhotos(PHOTOS);

    // The same photos, again and again.
    const starts: Awaited<ReturnType<typeof start>>[] = [];
    for (let n = 0; n < 4 && starts.at(-1)?.status !== 409; n++) starts.push(await start(user, keys));
    console.info(
      'starts with the same photos',
      starts.map((s) => s.status),
      'calls',
      gen.fake.calls.length,
    );
    const [first] = starts;
    expect(first).toMatchObject({
      status: 202,
      final: { status: 'failed', headshots: [], creditsRefunded: 6 },
    });
    expect(first!.final!.error).toEqual({
      code: 'PHOTOS_REFUSED',
      message: `Our image service refused to make headshots from these photos, so we stopped. 6 credits have been refunded. ${OTHER_PHOTOS}`,
    });
    // Three refusals stop the generation; the call in flight then may still be made.
    const firstCalls = gen.fake.calls.length;
    expect(firstCalls).toBeGreaterThanOrEqual(3);
    expect(firstCalls).toBeLessThanOrEqual(6);
    const refused = starts.at(-1)!;
    expect(starts.length).toBeLessThanOrEqual(4);
    expect(refused).toEqual({
      status: 409,
      error: {
        code: 'PHOTOS_REFUSED',
        message: `Our image service refused to make headshots from these photos, so we won't use them again. ${OTHER_PHOTOS}`,
      },
    });

    // The same files uploaded again under new keys: the same content, refused alike, nothing spent.
    const again = await uploadPhotos(gen.stack.gatewayUrl, user.idToken, PHOTOS.map(fixturePhoto));
    expect(await start(user, again)).toMatchObject({ status: 409, error: { code: 'PHOTOS_REFUSED' } });

    // New bytes each time: the account's refusals in the last 24 hours refuse it, whatever the photos.
    let accountRefusal: Awaited<ReturnType<typeof start>> | undefined;
    for (const quality of [90, 80, 70, 60]) {
      const setKeys = await uploadPhotos(gen.stack.gatewayUrl, user.idToken, await reencoded(quality));
      const outcome = await start(user, setKeys);
      if (outcome.status !== 202) {
        accountRefusal = outcome;
        break;
      }
      expect(outcome.final).toMatchObject({
        status: 'failed',
        creditsRefunded: 6,
        error: { code: 'PHOTOS_REFUSED' },
      });
      expect(gen.fake.calls.length).toBeLessThanOrEqual(12);
    }
    expect(accountRefusal).toMatchObject({
      status: 429,
      error: {
        code: 'QUOTA_EXCEEDED',
        message: expect.stringMatching(
          /^Our image service refused too many of your recent requests\. Please try again in \d+ hours, with different photos\.$/,
        ) as string,
        details: { quota: 'provider-refusals' },
      },
    });

    console.info('provider calls in all', gen.fake.calls.length);
    expect(gen.fake.calls.length).toBeLessThanOrEqual(12);
    // Every call carried the caller's keyed hash, in the form OpenAI takes (the stand-in refused none).
    const identifier = safetyIdentifier(user.sub, process.env.SIGNUP_BONUS_PEPPER ?? '');
    expect(new Set(gen.fake.calls.map((c) => c.safetyIdentifier))).toEqual(new Set([identifier]));
    expect(gen.fake.refused).toEqual([]);
    // All credits back; the refused starts spent nothing.
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect(await generationsSpent(user.sub)).toBe(starts.filter((s) => s.status === 202).length + 1);
  }, 300_000);
});
