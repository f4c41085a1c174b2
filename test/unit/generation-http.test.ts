import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as QuotasModule from '../../functions/adapters/quotas';
import { resetConfigForTests } from '../../functions/config/settings';
import { callRoute } from '../helpers/route';

/*
 * The generation routes' checks that need no AWS call: body validation, ownership of upload keys, and the upload
 * POST policy (presigning is local crypto). Everything with I/O is in test/integration/generation*.test.ts.
 */

// The hourly upload quota is a DynamoDB counter (test/integration/quotas.test.ts covers it); here it always admits.
vi.mock('../../functions/adapters/quotas', async (importOriginal) => ({
  ...(await importOriginal<typeof QuotasModule>()),
  consumeQuota: vi.fn(async () => ({ used: 1, remaining: 99, resetAt: 0, release: async () => {} })),
}));

const SUB = '6d716c5a-579a-47d4-82f0-e1ea157c6776';

/** The routes under test, called through the route harness (sample event, the caller's sub, the contract). */
const uploads = (body: unknown) => callRoute('POST /api/uploads', { sub: SUB, body });
const generations = (body: unknown) => callRoute('POST /api/generations', { sub: SUB, body });

beforeAll(() => {
  vi.stubEnv('TABLE_NAME', 'headshot-studio');
  vi.stubEnv('UPLOADS_BUCKET', 'uploads-bucket');
  vi.stubEnv('RESULTS_BUCKET', 'results-bucket');
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
  vi.stubEnv('AWS_ENDPOINT_URL_S3', 'http://127.0.0.1:4569');
  vi.stubEnv('S3_FORCE_PATH_STYLE', 'true');
  resetConfigForTests();
});

afterAll(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe('POST /api/uploads', () => {
  it('presigns a POST whose policy allows 1 B-10 MiB of image/* at that key, for 5 minutes', async () => {
    const before = Date.now();
    const res = await uploads({
      files: [
        { contentType: 'image/jpeg', size: 2_000_000 },
        { contentType: 'IMAGE/HEIC', size: 1 },
      ],
    });
    if (!res.ok) throw new Error(res.error.message);
    const body = res.body;
    expect(body.uploads).toHaveLength(2);
    const [first, second] = body.uploads as [(typeof body.uploads)[number], (typeof body.uploads)[number]];
    expect(first.key).toBe(`uploads/${SUB}/${body.batchId}/0`);
    expect(first.url).toBe('http://127.0.0.1:4569/uploads-bucket');
    expect(first.fields).toMatchObject({
      key: first.key,
      'Content-Type': 'image/jpeg',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Signature': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(second.fields['Content-Type']).toBe('image/heic');

    const policy = JSON.parse(Buffer.from(first.fields.Policy!, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    const expiresIn = Date.parse(policy.expiration) - before;
    expect(expiresIn).toBeGreaterThan(295_000);
    expect(expiresIn).toBeLessThanOrEqual(301_000);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 10 * 1024 * 1024],
        ['starts-with', '$Content-Type', 'image/'],
        { bucket: 'uploads-bucket' },
        { key: first.key },
        { 'Content-Type': 'image/jpeg' },
      ]),
    );
  });

  it('answers 400 with a clear message for anything that is not 1-10 images of at most 10 MB', async () => {
    const cases: [unknown, RegExp][] = [
      [{ files: [{ contentType: 'text/plain', size: 10 }] }, /Only image files can be uploaded/],
      [{ files: [{ contentType: 'image/jpeg', size: 10 * 1024 * 1024 + 1 }] }, /10 MB or smaller/],
      [{ files: [{ contentType: 'image/jpeg', size: 0 }] }, /empty/],
      [{ files: [{ contentType: 'image/jpeg', size: 1.5 }] }, /whole number/],
      [
        { files: Array.from({ length: 11 }, () => ({ contentType: 'image/png', size: 1 })) },
        /Maximum 10 files/,
      ],
      [{ files: [] }, /at least one photo/],
      [undefined, /Invalid request/],
    ];
    for (const [body, message] of cases) {
      const res = await uploads(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(!res.ok && res.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(message),
      });
    }
  });
});

describe('POST /api/generations (checks before any I/O)', () => {
  const valid = {
    style: 'professional',
    background: 'office',
    referenceKeys: [`uploads/${SUB}/01M80GZ6D1Q79C9B1WV0W2SV7Z/0`],
  };

  it('validates style, background and the reference list', async () => {
    for (const body of [
      { ...valid, style: 'casual' },
      { ...valid, background: 'beach' },
      { ...valid, referenceKeys: [] },
      { ...valid, referenceKeys: Array.from({ length: 11 }, (_, i) => `k${i}`) },
      { ...valid, referenceKeys: [valid.referenceKeys[0], valid.referenceKeys[0]] },
    ]) {
      const res = await generations(body);
      expect(res.status).toBe(400);
      expect(!res.ok && res.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it("refuses another user's key (and malformed ones) without saying whether it exists", async () => {
    const res = await generations({
      ...valid,
      referenceKeys: [valid.referenceKeys[0], 'uploads/someone-else/01M80GZ6D1Q79C9B1WV0W2SV7Z/0'],
    });
    expect(res.status).toBe(400);
    expect(!res.ok && res.error).toEqual({
      code: 'INVALID_REFERENCE',
      message: 'Photo 2 is not one of your uploads.',
    });
  });
});

describe('GET /api/generations/{id}', () => {
  it('answers 404 for an id that is not a ULID, before reading anything', async () => {
    const res = await callRoute('GET /api/generations/{id}', {
      sub: SUB,
      pathParameters: { id: '../../PROFILE' },
    });
    expect(res.status).toBe(404);
    expect(!res.ok && res.error).toEqual({ code: 'NOT_FOUND', message: 'Generation not found.' });
  });
});
