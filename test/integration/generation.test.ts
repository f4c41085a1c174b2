import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { getGeneration } from '../../functions/adapters/generations';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { getObjectBytes } from '../../functions/adapters/storage';
import { slotRefundRef } from '../../functions/domain/slots';
import { normalizedKey } from '../../functions/domain/object-keys';
import { analyzeFaces, decodeRgb } from '../../functions/adapters/support/vision-models/faces';
import { createTestUser, type TestUser } from '../helpers/cognito';
import {
  api,
  expectMonotonicProgress,
  fixturePhoto,
  pollGeneration,
  uploadPhotos,
  type GenerationView,
} from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * The generation feature end to end on the shared local stack (test/integration/global-setup.ts): the real route
 * table behind the local gateway and Cognito JWT authorizer, presigned POSTs into s3rver, DynamoDB Local, and
 * statemachines/generation.asl.json on aws-local-stepfunctions with the catalogue's task functions — the wiring
 * `npm start` uses. The image provider is the offline `local` one (no OPENAI_API_KEY in the test environment).
 * Fault injection with the `openai` provider lives in generation-provider.test.ts.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

async function signedUpUser(): Promise<TestUser> {
  const user = await createTestUser(pool);
  // GET /api/me creates the user with 6 credits if the post-confirmation trigger has not.
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

const startGeneration = (
  user: TestUser,
  referenceKeys: string[],
  style = 'professional',
  background = 'office',
) => api(gatewayUrl, user.idToken, 'POST', '/api/generations', { style, background, referenceKeys });

/** Mean absolute difference of two images' 64×64 greyscale thumbnails, 0-255. */
async function pixelDistance(a: Buffer, b: Buffer): Promise<number> {
  const small = (img: Buffer) => sharp(img).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

describe('POST /api/uploads', () => {
  it('presigns one POST per photo under the caller’s prefix, and refuses what is not a photo', async () => {
    const user = await signedUpUser();
    const ok = await api(gatewayUrl, user.idToken, 'POST', '/api/uploads', {
      files: [
        { contentType: 'image/jpeg', size: 1000 },
        { contentType: 'image/heic', size: 10 * 1024 * 1024 },
      ],
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as {
      batchId: string;
      uploads: { key: string; url: string; fields: Record<string, string> }[];
      expiresAt: string;
    };
    expect(body.uploads.map((u) => u.key)).toEqual([
      `uploads/${user.sub}/${body.batchId}/0`,
      `uploads/${user.sub}/${body.batchId}/1`,
    ]);
    expect(body.uploads[1]!.fields).toMatchObject({
      key: body.uploads[1]!.key,
      'Content-Type': 'image/heic',
    });
    expect(body.uploads[0]!.fields.Policy).toEqual(expect.any(String));
    expect(Date.parse(body.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);

    const refused = [
      { files: [] },
      { files: Array.from({ length: 11 }, () => ({ contentType: 'image/png', size: 10 })) },
      { files: [{ contentType: 'text/plain', size: 10 }] },
      { files: [{ contentType: 'image/jpeg', size: 0 }] },
      { files: [{ contentType: 'image/jpeg', size: 10 * 1024 * 1024 + 1 }] },
    ];
    for (const request of refused) {
      const res = await api(gatewayUrl, user.idToken, 'POST', '/api/uploads', request);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    expect((await fetch(`${gatewayUrl}/api/uploads`, { method: 'POST', body: '{}' })).status).toBe(401);
  });
});

describe('a generation with the local provider', () => {
  it(
    '5 photos incl. HEIC and EXIF-rotated → 6 upright 1024×1024 headshots, succeeded, balance 0',
    { timeout: 150_000 },
    async () => {
      const user = await signedUpUser();
      const photos = ['obama-rotated.jpg', 'obama2.heic', 'obama.jpg', 'obama3.jpg', 'obama-720p.jpg'].map(
        fixturePhoto,
      );
      const keys = await uploadPhotos(gatewayUrl, user.idToken, photos);

      const res = await startGeneration(user, keys, 'professional', 'office');
      expect(res.status).toBe(202);
      expect(res.headers.get('location')).toMatch(/^\/api\/generations\/[0-9A-Z]{26}$/);
      const created = (await res.json()) as { id: string; status: string; progress: number; credits: number };
      expect(created).toMatchObject({ status: 'queued', progress: 5, credits: 0, creditsReserved: 6 });

      const { final, seen, elapsedMs } = await pollGeneration(gatewayUrl, user.idToken, created.id);
      console.info(
        `local end-to-end generation: ${elapsedMs} ms; progress seen ${[...new Set(seen.map((v) => v.progress))].join(' → ')}`,
      );
      expectMonotonicProgress(seen);
      expect(final).toMatchObject({
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        error: null,
        style: 'professional',
        background: 'office',
        creditsReserved: 6,
        creditsRefunded: 0,
        headshotsExpected: 6,
      });
      expect(final.headshots.map((h) => h.slot)).toEqual([0, 1, 2, 3, 4, 5]);
      expect((await getUser(user.sub))?.credits).toBe(0);

      // Every headshot: a 1024×1024 JPEG and a WebP thumbnail ≤ 384 px, served by their presigned URLs.
      for (const headshot of final.headshots) {
        expect(headshot).toMatchObject({ style: 'professional', background: 'office', isFavorite: false });
        // Named by what it is (issue 28): style, background, place in the generation, variant.
        expect(headshot.fileName).toBe(`headshot-professional-office-${headshot.slot + 1}-square.jpg`);
        const [image, thumbnail] = await Promise.all([
          fetch(headshot.imageUrl).then(async (r) => Buffer.from(await r.arrayBuffer())),
          fetch(headshot.thumbnailUrl).then(async (r) => Buffer.from(await r.arrayBuffer())),
        ]);
        expect(await sharp(image).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
        const thumb = await sharp(thumbnail).metadata();
        expect(thumb.format).toBe('webp');
        expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBeLessThanOrEqual(384);
      }
      const download = await fetch(final.headshots[0]!.downloadUrl);
      expect(download.status).toBe(200);

      // A poll does not sign its URLs again: they are signed at the start of a 5-minute window and the same until
      // the next one (so the browser's image cache serves them between polls).
      const again = (await (
        await api(gatewayUrl, user.idToken, 'GET', `/api/generations/${created.id}`)
      ).json()) as typeof final;
      const signedAt = (url: string) =>
        Date.parse(
          new URL(url).searchParams
            .get('X-Amz-Date')!
            .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
        );
      for (const [i, headshot] of again.headshots.entries()) {
        const before = final.headshots[i]!;
        for (const field of ['thumbnailUrl', 'imageUrl', 'downloadUrl'] as const) {
          expect(signedAt(headshot[field]) % 300_000).toBe(0);
          if (signedAt(headshot[field]) === signedAt(before[field]))
            expect(headshot[field]).toBe(before[field]);
        }
      }

      // The references: the 3 best photos by photo-check score (the HEIC among the candidates, decoded and judged
      // like the rest), each an upright, metadata-free, head-and-shoulders crop centred on the face. obama.jpg,
      // obama-rotated.jpg (stored rotated with an EXIF tag) and obama-720p.jpg (letterboxed: decision 024) are one
      // picture: only one is used, so the three pictures are the references.
      const generation = await getGeneration(user.sub, created.id);
      expect(generation?.rejectedPhotos).toEqual([
        { index: expect.any(Number), problem: 'duplicate' },
        { index: expect.any(Number), problem: 'duplicate' },
      ]);
      for (const rejected of generation!.rejectedPhotos!) expect([0, 2, 4]).toContain(rejected.index);
      expect(generation?.referenceDescriptor).toEqual(expect.any(String));
      const chosen = generation!.references!.map((ref) =>
        keys.findIndex((key) => normalizedKey(key) === ref),
      );
      expect(chosen).toHaveLength(3);
      expect(chosen.every((i) => i >= 0)).toBe(true);
      expect(chosen.filter((i) => i === 0 || i === 2 || i === 4)).toHaveLength(1);
      expect(chosen).toEqual(expect.arrayContaining([1, 3]));
      const crops = await Promise.all(
        generation!.references!.map(async (key) => (await getObjectBytes('uploads', key))!),
      );
      for (const crop of crops) {
        const meta = await sharp(crop).metadata();
        expect(meta).toMatchObject({ format: 'jpeg' });
        expect(meta.width).toBe(meta.height);
        expect(meta.orientation).toBeUndefined();
        expect(meta.exif).toBeUndefined();
        const { faces, width } = await analyzeFaces(await decodeRgb(crop));
        expect(faces).toHaveLength(1);
        const eyes = faces[0]!.eyes;
        expect(Math.abs((eyes[0].x + eyes[1].x) / 2 / width - 0.5)).toBeLessThan(0.15);
        expect(Math.abs(faces[0]!.rollDegrees)).toBeLessThan(15); // upright, EXIF rotation applied
      }
      // The EXIF-rotated photo and its upright original give the same crop, up to a pixel or two of framing (the
      // landmarks of two encodings differ slightly); a sideways crop would differ by far more than 12.
      if (chosen.includes(0) && chosen.includes(2)) {
        const distance = await pixelDistance(crops[chosen.indexOf(0)]!, crops[chosen.indexOf(2)]!);
        console.info('rotated vs upright reference crop, mean grey difference', distance.toFixed(1));
        expect(distance).toBeLessThan(12);
      }

      const ledger = await listLedger(user.sub);
      expect(ledger.filter((e) => e.reason === 'generation')).toEqual([
        expect.objectContaining({ delta: -6, ref: created.id }),
      ]);
      expect(ledger.filter((e) => e.reason === 'refund')).toEqual([]);
      await expectLedgerBalanced(user.sub);
    },
  );

  it('rejects bytes that are not an image in PrepareReferences, with a reason, and refunds all 6 credits', async () => {
    const user = await signedUpUser();
    const [key] = await uploadPhotos(gatewayUrl, user.idToken, [
      { name: 'selfie.jpg', bytes: Buffer.from('%PDF-1.7 definitely not a JPEG'), contentType: 'image/jpeg' },
    ]);
    const res = await startGeneration(user, [key!]);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };

    const { final } = await pollGeneration(gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'failed', stage: 'failed', headshots: [], creditsRefunded: 6 });
    expect(final.error).toEqual({
      code: 'NO_USABLE_PHOTOS',
      message: expect.stringMatching(
        /^None of your photos could be used: photo 1 is not an image we can read/,
      ),
    });
    expect((await getUser(user.sub))?.credits).toBe(6);
    const refunds = (await listLedger(user.sub)).filter((e) => e.reason === 'refund');
    expect(refunds.map((e) => e.ref).sort()).toEqual(
      [0, 1, 2, 3, 4, 5].map((slot) => slotRefundRef(id, slot)),
    );
    await expectLedgerBalanced(user.sub);
  });
});

describe('POST /api/generations guards', () => {
  it("refuses another user's upload key and a key never uploaded, spending nothing", async () => {
    const [owner, intruder] = await Promise.all([signedUpUser(), signedUpUser()]);
    const [ownersKey] = await uploadPhotos(gatewayUrl, owner.idToken, [fixturePhoto('obama-720p.jpg')]);

    const foreign = await startGeneration(intruder, [ownersKey!]);
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toEqual({
      error: { code: 'INVALID_REFERENCE', message: 'Photo 1 is not one of your uploads.' },
    });
    const traversal = await startGeneration(intruder, [`uploads/${intruder.sub}/../${owner.sub}/x/0`]);
    expect(traversal.status).toBe(400);

    const neverUploaded = `uploads/${intruder.sub}/01JAAAAAAAAAAAAAAAAAAAAAAA/0`;
    const missing = await startGeneration(intruder, [neverUploaded]);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('UPLOAD_NOT_FOUND');

    const invalid = await api(gatewayUrl, intruder.idToken, 'POST', '/api/generations', {
      style: 'casual',
      background: 'office',
      referenceKeys: [neverUploaded],
    });
    expect(invalid.status).toBe(400);

    expect((await getUser(intruder.sub))?.credits).toBe(6);
    expect((await listLedger(intruder.sub)).map((e) => e.reason)).toEqual(['signup_bonus']);
    await expectLedgerBalanced(intruder.sub);
  });

  it(
    '20 parallel POSTs with 6 credits: exactly 1 accepted, 19 answered 402 with the spec’s message',
    { timeout: 90_000 },
    async () => {
      const user = await signedUpUser();
      const keys = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama-720p.jpg')]);
      const responses = await Promise.all(Array.from({ length: 20 }, () => startGeneration(user, keys)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 202)).toHaveLength(1);
      expect(statuses.filter((s) => s === 402)).toHaveLength(19);
      const refused = await responses.find((r) => r.status === 402)!.json();
      expect(refused).toEqual({
        error: {
          code: 'INSUFFICIENT_CREDITS',
          message: 'Insufficient credits! You need 6 credits but only have 0.',
          details: { required: 6, credits: 0 },
        },
      });
      const { id } = (await responses.find((r) => r.status === 202)!.json()) as { id: string };
      const { final } = await pollGeneration(gatewayUrl, user.idToken, id);
      expect(final.status).toBe('succeeded');
      expect((await listLedger(user.sub)).filter((e) => e.reason === 'generation')).toHaveLength(1);
      await expectLedgerBalanced(user.sub);
    },
  );
});

describe('GET /api/generations/{id}', () => {
  it("answers 404 for another user's generation and for unknown ids, 401 without a token", async () => {
    const [owner, other] = await Promise.all([signedUpUser(), signedUpUser()]);
    const keys = await uploadPhotos(gatewayUrl, owner.idToken, [fixturePhoto('obama-720p.jpg')]);
    const { id } = (await (await startGeneration(owner, keys, 'creative', 'gradient')).json()) as {
      id: string;
    };

    const asOther = await api(gatewayUrl, other.idToken, 'GET', `/api/generations/${id}`);
    expect(asOther.status).toBe(404);
    expect(await asOther.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Generation not found.' } });
    expect((await api(gatewayUrl, owner.idToken, 'GET', '/api/generations/not-an-id')).status).toBe(404);
    expect((await fetch(`${gatewayUrl}/api/generations/${id}`)).status).toBe(401);

    const { final } = await pollGeneration(gatewayUrl, owner.idToken, id);
    expect(final).toMatchObject({ status: 'succeeded', style: 'creative', background: 'gradient' });
    expect(new Set(final.headshots.map((h: GenerationView['headshots'][number]) => h.background))).toEqual(
      new Set(['gradient']),
    );
    await expectLedgerBalanced(owner.sub);
    await expectLedgerBalanced(other.sub);
  });
});
