import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPost } from '@aws-sdk/s3-presigned-post';
import { createHash } from 'node:crypto';
import { storageSettings } from '../config/storage';
import { MAX_UPLOAD_BYTES } from '../domain/photos';
import { DOWNLOAD_URL_TTL_SECONDS } from '../domain/presigned-urls';
import { s3Client } from './support/aws';
import { presignGet, type BucketName } from './support/url-signer';

/**
 * S3 operations of the generation feature: presigned uploads and downloads, and object reads and writes of the
 * workflow tasks (docs/architecture.md §3, §4). Buckets come from config (UPLOADS_BUCKET, RESULTS_BUCKET).
 */

/** How long a presigned upload POST stays valid, in seconds (5 minutes). */
export const UPLOAD_URL_TTL_SECONDS = 300;
// How long a presigned GET stays valid (15 minutes): one number, in the domain, shared with adapters/headshots/urls.ts.
export { DOWNLOAD_URL_TTL_SECONDS };

/**
 * The conditions every upload POST policy carries: 1 byte to 10 MiB, a Content-Type starting with `image/`.
 * S3 (and the local stand-in) refuse a POST that breaks them (400 EntityTooLarge/EntityTooSmall, 403 AccessDenied);
 * the API and the workflow still re-check, by HeadObject and by decoding.
 */
export function uploadPolicyConditions(): NonNullable<
  Parameters<typeof createPresignedPost>[1]['Conditions']
> {
  return [
    ['content-length-range', 1, MAX_UPLOAD_BYTES],
    ['starts-with', '$Content-Type', 'image/'],
  ];
}

/**
 * A presigned POST for one upload: the browser sends a multipart form with every field of `fields` (in order),
 * then `file` last, to `url`.
 *
 * @param key the object key (`uploads/<sub>/<batchId>/<n>`)
 * @param contentType the file's declared type (must start with `image/`; also set as the object's Content-Type)
 */
export function presignUpload(key: string, contentType: string): Promise<PresignedPost> {
  return createPresignedPost(s3Client(), {
    Bucket: storageSettings().UPLOADS_BUCKET,
    Key: key,
    Conditions: uploadPolicyConditions(),
    Fields: { 'Content-Type': contentType },
    Expires: UPLOAD_URL_TTL_SECONDS,
  });
}

export type { BucketName } from './support/url-signer';

const bucketOf = (bucket: BucketName) =>
  bucket === 'uploads' ? storageSettings().UPLOADS_BUCKET : storageSettings().RESULTS_BUCKET;

/**
 * A presigned GET URL for a response that lists images (the generation poll): valid at least
 * {@link DOWNLOAD_URL_TTL_SECONDS}, and the same URL for the same object within a 5-minute window, so a poll does
 * not sign again (adapters/support/url-signer.ts).
 *
 * @param downloadName when set, the response carries `Content-Disposition: attachment; filename="<downloadName>"`
 */
export function presignDownload(bucket: BucketName, key: string, downloadName?: string): Promise<string> {
  return presignGet(bucket, key, DOWNLOAD_URL_TTL_SECONDS, {
    reuse: true,
    ...(downloadName ? { disposition: `attachment; filename="${downloadName}"` } : {}),
  });
}

/** An object's size and type as S3 reports them. */
export interface ObjectHead {
  /** Bytes. */
  size: number;
  contentType: string | undefined;
  /** The object's ETag (changes whenever its bytes do): the photo-check cache's version. */
  etag: string | undefined;
}

/**
 * HeadObject; `undefined` when the object does not exist.
 *
 * @throws the SDK error for anything but a missing object (access denied, network)
 */
export async function headObject(bucket: BucketName, key: string): Promise<ObjectHead | undefined> {
  try {
    const head = await s3Client().send(new HeadObjectCommand({ Bucket: bucketOf(bucket), Key: key }));
    return { size: head.ContentLength ?? 0, contentType: head.ContentType, etag: head.ETag };
  } catch (error) {
    const name = (error as Error).name;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (name === 'NotFound' || name === 'NoSuchKey' || status === 404) return undefined;
    throw error;
  }
}

/** Thrown by {@link getObject} when an object is larger than the caller allows. */
export class ObjectTooLargeError extends Error {
  override readonly name = 'ObjectTooLargeError';
  /**
   * @param etag the ETag of the object that was too large (what a caller keys a verdict on it by)
   */
  constructor(
    message: string,
    readonly etag?: string,
  ) {
    super(message);
  }
}

/** An object's bytes and the ETag they were read at. */
export interface ObjectBytes {
  bytes: Buffer;
  /** The ETag of exactly these bytes, as S3 sends it (quoted); `undefined` only if the store sends none. */
  etag: string | undefined;
}

/**
 * Reads a whole object into memory, with its ETag; `undefined` when it does not exist.
 *
 * @param maxBytes refuse objects larger than this (checked from Content-Length before reading the body)
 * @throws {ObjectTooLargeError} when the object is larger than `maxBytes`
 */
export async function getObject(
  bucket: BucketName,
  key: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ObjectBytes | undefined> {
  try {
    const object = await s3Client().send(new GetObjectCommand({ Bucket: bucketOf(bucket), Key: key }));
    if ((object.ContentLength ?? 0) > maxBytes) {
      // Do not download what will be refused: drop the connection instead of draining the body.
      (object.Body as { destroy?: () => void } | undefined)?.destroy?.();
      throw new ObjectTooLargeError(`${key} is ${object.ContentLength} bytes, over ${maxBytes}`, object.ETag);
    }
    const bytes = await object.Body?.transformToByteArray();
    return { bytes: Buffer.from(bytes ?? []), etag: object.ETag };
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/**
 * Reads a whole object into memory; `undefined` when it does not exist (see {@link getObject}).
 *
 * @throws {ObjectTooLargeError} when the object is larger than `maxBytes`
 */
export async function getObjectBytes(
  bucket: BucketName,
  key: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Buffer | undefined> {
  return (await getObject(bucket, key, maxBytes))?.bytes;
}

/**
 * The SHA-256 (hex) of an object's bytes, read as a stream (never held in memory whole); `undefined` when it does not
 * exist. What a photo set is identified by (domain/likeness-cap.ts `referenceSetHash`): an ETag is no digest of the
 * bytes for a multipart or SSE-KMS object.
 *
 * @throws the SDK error for anything but a missing object
 */
export async function objectSha256(bucket: BucketName, key: string): Promise<string | undefined> {
  try {
    const object = await s3Client().send(new GetObjectCommand({ Bucket: bucketOf(bucket), Key: key }));
    const hash = createHash('sha256');
    for await (const chunk of (object.Body ?? []) as AsyncIterable<Uint8Array>) hash.update(chunk);
    return hash.digest('hex');
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Writes an object (private; server-side encryption is the bucket's default). */
export async function putObject(
  bucket: BucketName,
  key: string,
  body: Buffer,
  contentType: string,
): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: bucketOf(bucket),
      Key: key,
      Body: body,
      ContentType: contentType,
      CacheControl: 'private, max-age=31536000, immutable',
    }),
  );
}

/** Deletes an object (S3 answers success for a missing key too). */
export async function deleteObject(bucket: BucketName, key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: bucketOf(bucket), Key: key }));
}
