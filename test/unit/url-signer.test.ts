import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * adapters/support/url-signer.ts signs without the S3 client's middleware stack; these tests prove its URLs are exactly the
 * SDK's own getSignedUrl for the same signing time and lifetime (S3 checks the signature byte for byte; s3rver does
 * not, so the integration tests could not catch a wrong one) — of a GetObject without the two query parameters the
 * SDK adds for itself (`x-id`, `x-amz-checksum-mode`), which the signer leaves out.
 */

/** `command` as getSignedUrl signs it once its `x-id` and `x-amz-checksum-mode` are taken off the request. */
function withoutSdkHints(command: GetObjectCommand): GetObjectCommand {
  command.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { query?: Record<string, unknown>; headers?: Record<string, string> };
      delete request.query?.['x-id'];
      delete request.headers?.['x-amz-checksum-mode'];
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'withoutSdkHints' },
  );
  return command;
}

const ENV = {
  TABLE_NAME: 't',
  UPLOADS_BUCKET: 'uploads-bucket',
  RESULTS_BUCKET: 'results-bucket',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_SESSION_TOKEN: 'session/token+=',
};

async function load(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries({ ...ENV, ...env })) vi.stubEnv(name, value);
  const signer = await import('../../functions/adapters/support/url-signer');
  const aws = await import('../../functions/adapters/support/aws');
  return { ...signer, s3: aws.s3Client() };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const NOW = Date.parse('2026-11-22T10:07:31.250Z');
const WINDOW_START = new Date('2026-11-22T10:05:00.000Z');
const KEY = 'results/1b2c-sub/01JH0000000000000000000000/3.jpg';

const sorted = (url: string) => {
  const u = new URL(url);
  u.searchParams.sort();
  return u.href;
};

describe.each([
  ['virtual-hosted (AWS)', {}],
  [
    'path-style custom endpoint (s3rver)',
    { S3_FORCE_PATH_STYLE: 'true', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569' },
  ],
])('presignGet, %s', (_name, env) => {
  it('equals getSignedUrl for the same signing time and lifetime', async () => {
    const { presignGet, s3, SIGNING_WINDOW_MS } = await load(env);
    const url = await presignGet('results', KEY, 900, { reuse: true }, NOW);
    const expected = await getSignedUrl(
      s3,
      withoutSdkHints(new GetObjectCommand({ Bucket: 'results-bucket', Key: KEY })),
      {
        expiresIn: 900 + SIGNING_WINDOW_MS / 1000,
        signingDate: WINDOW_START,
      },
    );
    expect(sorted(url)).toBe(sorted(expected));
    expect(new URL(url).searchParams.has('x-id')).toBe(false);
    expect(new URL(url).searchParams.has('x-amz-checksum-mode')).toBe(false);
  });

  it('signs the download overrides like getSignedUrl', async () => {
    const { presignGet, s3, SIGNING_WINDOW_MS } = await load(env);
    const disposition = 'attachment; filename="headshot-01JH.jpg"';
    const url = await presignGet(
      'results',
      KEY,
      900,
      { reuse: true, disposition, contentType: 'image/jpeg' },
      NOW,
    );
    const expected = await getSignedUrl(
      s3,
      withoutSdkHints(
        new GetObjectCommand({
          Bucket: 'results-bucket',
          Key: KEY,
          ResponseContentDisposition: disposition,
          ResponseContentType: 'image/jpeg',
        }),
      ),
      { expiresIn: 900 + SIGNING_WINDOW_MS / 1000, signingDate: WINDOW_START },
    );
    expect(sorted(url)).toBe(sorted(expected));
  });
});

describe('presignGet reuse', () => {
  it('gives the same URL within a window and a new one in the next, always valid ≥ the TTL', async () => {
    const { presignGet, SIGNING_WINDOW_MS } = await load({});
    const first = await presignGet('results', KEY, 900, { reuse: true }, NOW);
    expect(await presignGet('results', KEY, 900, { reuse: true }, NOW + 60_000)).toBe(first);
    const next = await presignGet('results', KEY, 900, { reuse: true }, NOW + SIGNING_WINDOW_MS);
    expect(next).not.toBe(first);
    for (const url of [first, next]) {
      const u = new URL(url);
      const signed = u.searchParams.get('X-Amz-Date')!;
      const signedAt = Date.parse(
        `${signed.slice(0, 4)}-${signed.slice(4, 6)}-${signed.slice(6, 8)}T${signed.slice(9, 11)}:${signed.slice(11, 13)}:${signed.slice(13, 15)}Z`,
      );
      const expiresAt = signedAt + Number(u.searchParams.get('X-Amz-Expires')) * 1000;
      expect(expiresAt - (url === first ? NOW + 60_000 : NOW + SIGNING_WINDOW_MS)).toBeGreaterThanOrEqual(
        900_000,
      );
    }
  });
});

describe('presignGet without reuse (one-off download links)', () => {
  it('signs now, valid exactly the TTL, a fresh URL every time', async () => {
    const { presignGet, s3 } = await load({});
    const url = await presignGet('results', KEY, 900, { reuse: false }, NOW);
    const expected = await getSignedUrl(
      s3,
      withoutSdkHints(new GetObjectCommand({ Bucket: 'results-bucket', Key: KEY })),
      {
        expiresIn: 900,
        signingDate: new Date(NOW),
      },
    );
    expect(sorted(url)).toBe(sorted(expected));
    expect(await presignGet('results', KEY, 900, { reuse: false }, NOW + 1000)).not.toBe(url);
  });
});

describe('headshotUrls', () => {
  it("keeps a headshot's three URLs together for the window: presignGet's own, new ones in the next window", async () => {
    const { presignGet, SIGNING_WINDOW_MS } = await load({});
    const { downloadFileName, headshotUrls } = await import('../../functions/adapters/headshots/urls');
    const id = '01JH0000000000000000000003';
    const thumbnailKey = 'results/1b2c-sub/01JH0000000000000000000000/thumbnails/3.webp';
    const headshot = {
      id,
      imageKey: KEY,
      thumbnailKey,
      style: 'professional',
      background: 'office',
      slot: 2,
    } as Parameters<typeof headshotUrls>[0];
    const urls = await headshotUrls(headshot, NOW);
    // The variants' own URLs (issue 28) come with them: headshot-variants.test.ts checks those.
    expect(urls).toMatchObject({
      thumbnailUrl: await presignGet('results', thumbnailKey, 900, { reuse: true }, NOW),
      imageUrl: await presignGet('results', KEY, 900, { reuse: true }, NOW),
      downloadUrl: await presignGet(
        'results',
        KEY,
        900,
        { reuse: true, disposition: `attachment; filename="${downloadFileName(headshot)}"` },
        NOW,
      ),
    });
    expect(await headshotUrls(headshot, NOW + 60_000)).toBe(urls);
    const next = await headshotUrls(headshot, NOW + SIGNING_WINDOW_MS);
    expect(next.imageUrl).not.toBe(urls.imageUrl);
    expect(next.imageUrl).toBe(
      await presignGet('results', KEY, 900, { reuse: true }, NOW + SIGNING_WINDOW_MS),
    );
  });
});
