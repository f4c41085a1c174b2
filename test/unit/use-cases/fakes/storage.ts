import { createHash } from 'node:crypto';
import {
  ObjectTooLargeError,
  type ObjectBytes,
  type ObjectHead,
} from '../../../../functions/adapters/storage';

/** The data buckets (adapters/storage.ts `BucketName`). */
export type Bucket = 'uploads' | 'results';

interface StoredObject {
  bytes: Buffer;
  contentType: string;
  etag: string;
}

/**
 * In-memory S3 buckets with the storage adapter's functions (adapters/storage.ts): objects with a Content-Type and
 * an ETag that changes whenever the object is written again, a missing object read as `undefined`, and a read over
 * `maxBytes` refused with `ObjectTooLargeError` carrying the object's ETag. Pass its methods as ports; read
 * {@link objects} in assertions.
 */
export class FakeBuckets {
  readonly objects = new Map<string, StoredObject>();
  /** Keys read with {@link getObject} / {@link getObjectBytes}, in order. */
  readonly reads: string[] = [];
  /** Keys asked about with {@link headObject}, in order. */
  readonly heads: string[] = [];
  private version = 0;

  private path(bucket: Bucket, key: string) {
    return `${bucket}/${key}`;
  }

  /** Puts an object directly (a test's upload); returns its ETag. */
  put(bucket: Bucket, key: string, bytes: Buffer | string, contentType = 'image/jpeg'): string {
    const etag = `"etag-${++this.version}"`;
    this.objects.set(this.path(bucket, key), {
      bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
      contentType,
      etag,
    });
    return etag;
  }

  /** The stored object at `key` (not a copy), for assertions. */
  stored(bucket: Bucket, key: string): StoredObject | undefined {
    return this.objects.get(this.path(bucket, key));
  }

  /** Keys stored under `prefix` in `bucket`, sorted. */
  keys(bucket: Bucket, prefix = ''): string[] {
    const start = this.path(bucket, prefix);
    return [...this.objects.keys()]
      .filter((path) => path.startsWith(start))
      .map((path) => path.slice(bucket.length + 1))
      .sort();
  }

  readonly headObject = async (bucket: Bucket, key: string): Promise<ObjectHead | undefined> => {
    this.heads.push(key);
    const object = this.objects.get(this.path(bucket, key));
    return object
      ? { size: object.bytes.length, contentType: object.contentType, etag: object.etag }
      : undefined;
  };

  /** The SHA-256 (hex) of a stored object's bytes; `undefined` when it is not stored (adapters/storage.ts). */
  readonly objectSha256 = async (bucket: Bucket, key: string): Promise<string | undefined> => {
    const object = this.objects.get(this.path(bucket, key));
    return object ? createHash('sha256').update(object.bytes).digest('hex') : undefined;
  };

  readonly getObject = async (
    bucket: Bucket,
    key: string,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<ObjectBytes | undefined> => {
    this.reads.push(key);
    const object = this.objects.get(this.path(bucket, key));
    if (!object) return undefined;
    if (object.bytes.length > maxBytes)
      throw new ObjectTooLargeError(`${key} is ${object.bytes.length} bytes, over ${maxBytes}`, object.etag);
    return { bytes: Buffer.from(object.bytes), etag: object.etag };
  };

  readonly getObjectBytes = async (bucket: Bucket, key: string): Promise<Buffer | undefined> =>
    (await this.getObject(bucket, key))?.bytes;

  readonly putObject = async (
    bucket: Bucket,
    key: string,
    body: Buffer,
    contentType: string,
  ): Promise<void> => {
    this.put(bucket, key, body, contentType);
  };

  readonly deleteObject = async (bucket: Bucket, key: string): Promise<void> => {
    this.objects.delete(this.path(bucket, key));
  };
}
