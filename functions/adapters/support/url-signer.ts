import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { storageSettings } from '../../config/storage';
import { s3Client } from './aws';

/**
 * Presigned S3 GET URLs, made cheaply (docs/architecture.md, API: image URLs).
 *
 * `getSignedUrl` runs the S3 client's whole middleware stack (endpoint rules, serialization, credential lookup) for
 * every URL: about 0.3-0.5 ms each, 60 per gallery page. Here the bucket's endpoint is resolved once per cold start
 * (one `getSignedUrl` of a probe key, the SDK's own rules: path-style, custom endpoints, regions), and each URL is
 * only a SigV4 presign of a ready request by one {@link S3RequestPresigner} made from the client's config (its
 * credential provider caches the credentials) — about 0.04 ms.
 *
 * And a URL is not made again for every request: the signing time is rounded down to a {@link SIGNING_WINDOW_MS}
 * window and the URL lives `ttlSeconds` + that window, so within a window the same object gets the same URL (kept
 * in a small LRU cache; the browser's image cache hits too), and every URL handed out is still valid at least
 * `ttlSeconds`.
 */

/** Signing times are rounded down to this window (5 minutes); a URL lives its TTL plus this. */
export const SIGNING_WINDOW_MS = 5 * 60 * 1000;
/** URLs kept per execution environment (each about 1 KB). */
const CACHE_SIZE = 2000;

/** Which bucket an object is in. */
export type BucketName = 'uploads' | 'results';

/** What S3 should answer a presigned GET with, besides the object. */
export interface GetOverrides {
  /** `Content-Disposition` of the response, e.g. `attachment; filename="headshot-<id>.jpg"`. */
  disposition?: string;
  /** `Content-Type` of the response. */
  contentType?: string;
}

interface Endpoint {
  protocol: string;
  hostname: string;
  port?: number;
  /** The path before the key: `/` (virtual-hosted) or `/<bucket>/` (path-style). */
  pathPrefix: string;
  /** The query parameters the SDK adds to a GetObject besides the signature's and its {@link SDK_HINTS}. */
  query: Record<string, string>;
}

/** The signature's own query parameters (added by the presigner), as opposed to the request's. */
const SIGNATURE_PARAMS =
  /^x-amz-(algorithm|credential|date|expires|signedheaders|signature|security-token|content-sha256)$/i;
/**
 * What the SDK adds to every GetObject for itself, left out of the URLs (~50 bytes each, 90 URLs on a gallery page):
 * `x-id` names the operation (S3 routes a GET on a key without it) and `x-amz-checksum-mode` asks for checksum
 * headers that only an SDK validates, never a browser.
 */
const SDK_HINTS = /^(x-id|x-amz-checksum-mode)$/i;

const PROBE_KEY = 'url-signer-probe';
const endpoints = new Map<string, Promise<Endpoint>>();
const cache = new Map<string, string>();
let presigner: S3RequestPresigner | undefined;

const bucketOf = (bucket: BucketName) =>
  bucket === 'uploads' ? storageSettings().UPLOADS_BUCKET : storageSettings().RESULTS_BUCKET;

/** The bucket's endpoint as the SDK resolves it, once per cold start. */
function endpointOf(bucket: string): Promise<Endpoint> {
  let endpoint = endpoints.get(bucket);
  if (!endpoint) {
    endpoint = getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: bucket, Key: PROBE_KEY })).then(
      (probe) => {
        const url = new URL(probe);
        if (!url.pathname.endsWith(`/${PROBE_KEY}`))
          throw new Error(`Unexpected S3 URL shape: ${url.origin}`);
        return {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port ? Number(url.port) : undefined,
          pathPrefix: url.pathname.slice(0, -PROBE_KEY.length),
          query: Object.fromEntries(
            [...url.searchParams].filter(([name]) => !SIGNATURE_PARAMS.test(name) && !SDK_HINTS.test(name)),
          ),
        };
      },
    );
    endpoint.catch(() => endpoints.delete(bucket));
    endpoints.set(bucket, endpoint);
  }
  return endpoint;
}

/** An object key as S3 expects it in a path: every segment RFC 3986-encoded, the slashes kept. */
function encodeKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/');
}

function remember(cacheKey: string, url: string): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, url);
}

/**
 * What every reused URL of `bucket` signed at `now` shares besides its key and overrides: the signing identity (the
 * credentials' access key id), the bucket and the 5-minute window. Equal scopes, equal keys and equal overrides give
 * the same URL from {@link presignGet} with `reuse: true`, so a caller may keep a set of URLs under it.
 *
 * @param now epoch ms (tests)
 */
export async function reuseScope(bucket: BucketName, now = Date.now()): Promise<string> {
  const { accessKeyId } = await s3Client().config.credentials();
  return [accessKeyId, bucketOf(bucket), now - (now % SIGNING_WINDOW_MS)].join('\n');
}

/**
 * A presigned GET of `key` in `bucket`. Local signing only: no network call after the first one per bucket.
 *
 * - `reuse: true` (lists and polls): signed at the start of the current 5-minute window with a lifetime of
 *   `ttlSeconds` + 5 minutes, so it is still valid at least `ttlSeconds` from now and the same URL is returned
 *   (from the cache) until the window ends;
 * - `reuse: false` (a one-off download link): signed now, valid exactly `ttlSeconds`, never cached.
 *
 * @param now epoch ms (tests)
 */
export async function presignGet(
  bucket: BucketName,
  key: string,
  ttlSeconds: number,
  options: GetOverrides & { reuse: boolean },
  now = Date.now(),
): Promise<string> {
  const client = s3Client();
  presigner ??= new S3RequestPresigner({ ...client.config });
  const { accessKeyId } = await client.config.credentials();
  const overrides: GetOverrides = options;
  const signingTime = options.reuse ? now - (now % SIGNING_WINDOW_MS) : now;
  const bucketName = bucketOf(bucket);
  const cacheKey = [
    accessKeyId,
    bucketName,
    key,
    ttlSeconds,
    signingTime,
    overrides.disposition,
    overrides.contentType,
  ].join('\n');
  const cached = options.reuse ? cache.get(cacheKey) : undefined;
  if (cached) return cached;
  const endpoint = await endpointOf(bucketName);
  const query: Record<string, string> = { ...endpoint.query };
  if (overrides.disposition) query['response-content-disposition'] = overrides.disposition;
  if (overrides.contentType) query['response-content-type'] = overrides.contentType;
  const host = endpoint.port ? `${endpoint.hostname}:${endpoint.port}` : endpoint.hostname;
  const signed = await presigner.presign(
    {
      method: 'GET',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      port: endpoint.port,
      path: `${endpoint.pathPrefix}${encodeKey(key)}`,
      query,
      headers: { host },
    },
    {
      expiresIn: options.reuse ? ttlSeconds + SIGNING_WINDOW_MS / 1000 : ttlSeconds,
      signingDate: new Date(signingTime),
    },
  );
  const search = Object.entries(signed.query ?? {})
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const url = `${endpoint.protocol}//${host}${signed.path}?${search}`;
  if (options.reuse) remember(cacheKey, url);
  return url;
}

/** Forgets resolved endpoints and cached URLs (tests that switch configuration). */
export function resetUrlSignerForTests(): void {
  endpoints.clear();
  cache.clear();
  presigner = undefined;
}
