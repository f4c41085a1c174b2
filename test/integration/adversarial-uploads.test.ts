import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import { s3Client } from '../../functions/adapters/support/aws';
import { startGenerationExecution } from '../../functions/adapters/executions';
import { getUser, listLedger } from '../../functions/adapters/ledger';
import { storageSettings } from '../../functions/config/storage';
import { GENERATION_COST } from '../../functions/domain/credits';
import { slotRefundRef } from '../../functions/domain/slots';
import { uploadKey } from '../../functions/domain/object-keys';
import { hostilePhotos } from '../adversarial/files';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, pollGeneration, uploadPhotos, type PresignedUpload } from '../helpers/generation';
import { spendOnGeneration } from '../helpers/generation-items';

/*
 * Hostile uploads against the shared local stack. The API refuses what it can see up front (size, type) before any
 * credit is spent; everything else reaches the real generation workflow, where PrepareReferences decodes each photo,
 * refuses the unusable ones with a reason the user can read, and the workflow refunds every credit exactly once.
 *
 * The S3 stand-in refuses a POST that breaks its policy (size range, Content-Type) as S3 does; an object put by other
 * means (leaked credentials, a misconfigured policy) must still be caught by the API's own HeadObject check — and if
 * the object is swapped after that check, PrepareReferences must catch it too.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const touch = checkLedgersAfterEachTest();
const MiB = 1024 * 1024;

async function signedUp(): Promise<TestUser> {
  const user = await createTestUser(pool);
  touch(user.sub);
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

/** Puts an object straight into the uploads bucket (what a client could do with leaked credentials). */
async function putUpload(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: storageSettings().UPLOADS_BUCKET,
      Key: key,
      Body: body,
      ContentType: contentType,
    }),
  );
}

/** Posts `file` with the presigned form's fields, some of them replaced by `override`. */
function postUpload(
  upload: PresignedUpload,
  file: Blob,
  override: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...upload.fields, ...override })) form.append(name, value);
  form.append('file', file, 'photo.jpg');
  return fetch(upload.url, { method: 'POST', body: form });
}

async function keysUnder(bucket: string, prefix: string): Promise<string[]> {
  const page = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!);
}

const generate = (user: TestUser, referenceKeys: string[]) =>
  api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
    style: 'professional',
    background: 'studio',
    referenceKeys,
  });

/** Every refund of the generation, by ref: exactly one per slot. */
async function expectRefundedOnce(sub: string, generationId: string): Promise<void> {
  const refunds = (await listLedger(sub)).filter((e) => e.reason === 'refund');
  expect(refunds.map((e) => e.ref).sort()).toEqual(
    [0, 1, 2, 3, 4, 5].map((s) => slotRefundRef(generationId, s)),
  );
  expect(refunds.every((e) => e.delta === 1)).toBe(true);
}

describe('uploads that the API refuses before any credit is spent', () => {
  it('11 MiB (presign, a direct put past the POST policy) and 0 bytes → 400 with the reason', async () => {
    const user = await signedUp();

    // The presign step refuses a declared 11 MiB up front.
    const presign = await api(gatewayUrl, user.idToken, 'POST', '/api/uploads', {
      files: [{ contentType: 'image/jpeg', size: 11 * MiB }],
    });
    expect(presign.status).toBe(400);
    expect(await presign.json()).toEqual({
      error: expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: 'Invalid request: files.0.size: Each photo must be 10 MB or smaller.',
      }),
    });

    // 11 MiB put directly under the caller's prefix (past the POST policy), and an empty object.
    const direct = uploadKey(user.sub, ulid(), 0);
    const empty = uploadKey(user.sub, ulid(), 0);
    await putUpload(direct, Buffer.alloc(11 * MiB, 0xff), 'image/jpeg');
    await putUpload(empty, Buffer.alloc(0), 'image/jpeg');

    for (const key of [direct, empty]) {
      const res = await generate(user, [key]);
      expect(res.status, key).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 'INVALID_UPLOAD', message: 'Photo 1 must be an image file of at most 10 MB.' },
      });
    }
    expect((await getUser(user.sub))?.credits).toBe(6);
    expect((await listLedger(user.sub)).map((e) => e.reason)).toEqual(['signup_bonus']);
  });
});

describe('the S3 stand-in enforces the presigned POST policy, as S3 does', () => {
  it('refuses 11 MiB (400 EntityTooLarge) and a Content-Type other than the declared image (403), storing nothing', async () => {
    const user = await signedUp();
    const ok = await api(gatewayUrl, user.idToken, 'POST', '/api/uploads', {
      files: [{ contentType: 'image/jpeg', size: 1000 }],
    });
    const [upload] = ((await ok.json()) as { uploads: PresignedUpload[] }).uploads;
    const bucket = storageSettings().UPLOADS_BUCKET;

    const big = await postUpload(upload!, new Blob([new Uint8Array(11 * MiB)], { type: 'image/jpeg' }));
    expect(big.status).toBe(400);
    const bigError = await big.text();
    expect(bigError).toContain('<Code>EntityTooLarge</Code>');
    expect(bigError).toContain(`<ProposedSize>${11 * MiB}</ProposedSize>`);
    expect(bigError).toContain(`<MaxSizeAllowed>${10 * MiB}</MaxSizeAllowed>`);

    const html = new Blob(['<script>alert(1)</script>'], { type: 'text/html' });
    const wrongType = await postUpload(upload!, html, { 'Content-Type': 'text/html' });
    expect(wrongType.status).toBe(403);
    const typeError = await wrongType.text();
    expect(typeError).toContain('<Code>AccessDenied</Code>');
    expect(typeError).toContain('Invalid according to Policy: Policy Condition failed');
    expect(await keysUnder(bucket, upload!.key)).toEqual([]);

    // The same form within its policy is stored.
    const photo = new Blob([new Uint8Array(1000)], { type: 'image/jpeg' });
    expect((await postUpload(upload!, photo)).status).toBe(204);
    expect(await keysUnder(bucket, upload!.key)).toEqual([upload!.key]);
  });
});

describe('hostile photos through the real generation workflow', () => {
  it(
    'non-image bytes typed image/jpeg, an SVG with a script, a 20000×20000 PNG and a truncated JPEG → each refused with its reason, 6 credits refunded once',
    { timeout: 120_000 },
    async () => {
      const user = await signedUp();
      const hostile = hostilePhotos();
      const keys = await uploadPhotos(
        gatewayUrl,
        user.idToken,
        hostile.map((h) => h.file),
      );
      const res = await generate(user, keys);
      expect(res.status).toBe(202);
      const { id, credits } = (await res.json()) as { id: string; credits: number };
      expect(credits).toBe(0);

      const { final } = await pollGeneration(gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({
        status: 'failed',
        stage: 'failed',
        headshots: [],
        creditsReserved: GENERATION_COST,
        creditsRefunded: GENERATION_COST,
      });
      const reasons = hostile.map((h, i) => `photo ${i + 1} ${h.reason}`).join('; ');
      expect(final.error).toEqual({
        code: 'NO_USABLE_PHOTOS',
        message: `None of your photos could be used: ${reasons}. Please upload clear photos of yourself.`,
      });
      expect((await getUser(user.sub))?.credits).toBe(6);
      await expectRefundedOnce(user.sub, id);

      // Nothing derived from them exists: no normalized copy, no result.
      const { UPLOADS_BUCKET, RESULTS_BUCKET } = storageSettings();
      expect((await keysUnder(UPLOADS_BUCKET, `uploads/${user.sub}/`)).sort()).toEqual([...keys].sort());
      expect(await keysUnder(RESULTS_BUCKET, `results/${user.sub}/`)).toEqual([]);
    },
  );

  it(
    'when the object is swapped after the API checked it, PrepareReferences refuses 0 bytes and 11 MiB itself and refunds',
    { timeout: 120_000 },
    async () => {
      const user = await signedUp();
      const empty = uploadKey(user.sub, ulid(), 0);
      const big = uploadKey(user.sub, ulid(), 1);
      await putUpload(empty, Buffer.alloc(0), 'image/jpeg');
      await putUpload(big, Buffer.alloc(11 * MiB, 0xd8), 'image/jpeg');

      // What POST /api/generations does once its checks passed: the 6-credit spend with the generation item in one
      // transaction, then StartExecution — here with objects its HeadObject check would have refused.
      const id = await spendOnGeneration(user.sub, {
        style: 'creative',
        background: 'outdoor',
        referenceKeys: [empty, big],
      });
      await startGenerationExecution({
        generationId: id,
        userId: user.sub,
        style: 'creative',
        background: 'outdoor',
        referenceKeys: [empty, big],
      });

      const { final } = await pollGeneration(gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'failed', creditsRefunded: GENERATION_COST, headshots: [] });
      expect(final.error).toEqual({
        code: 'NO_USABLE_PHOTOS',
        message:
          'None of your photos could be used: photo 1 is empty; photo 2 is larger than 10 MB. Please upload clear photos of yourself.',
      });
      expect((await getUser(user.sub))?.credits).toBe(6);
      await expectRefundedOnce(user.sub, id);
    },
  );
});
