import { ulid } from 'ulid';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { presignUpload, UPLOAD_URL_TTL_SECONDS } from '../adapters/storage';
import type { Uploads } from '../contracts/generation';
import { uploadKey } from '../domain/object-keys';

/** What presigning uploads needs from the outside world: the caller's quota and S3's POST policies. */
export interface CreateUploadsPorts {
  /** Counts `amount` uploads of `sub` in the hour, all or none; throws {QuotaExceededError} when they do not fit. */
  consumeUploads: (sub: string, amount: number) => Promise<unknown>;
  /** A presigned POST for one file (`url`, `fields`), valid {@link UPLOAD_URL_TTL_SECONDS}. */
  presignUpload: (
    key: string,
    contentType: string,
  ) => Promise<{ url: string; fields: Record<string, string> }>;
  /** A new batch id (a ULID). */
  newBatchId: () => string;
  /** The clock, epoch ms. */
  now: () => number;
}

const adapters: CreateUploadsPorts = {
  consumeUploads: (sub, amount) => consumeQuota({ sub }, quotaRules().uploads, amount),
  presignUpload,
  newBatchId: ulid,
  now: Date.now,
};

/**
 * `POST /api/uploads`: one presigned POST per file, in the same order, under `uploads/<sub>/<batchId>/<n>`
 * (domain/object-keys.ts). The policy (adapters/storage.ts) allows 1 byte to 10 MiB and a Content-Type starting with
 * `image/`, for {@link UPLOAD_URL_TTL_SECONDS} seconds. The batch counts one unit per file against the caller's
 * hourly `uploads` quota, all or none: a refused batch presigns nothing.
 *
 * @param files the files' declared types (already validated by the route's contract)
 * @returns `{ batchId, uploads: [{ key, url, fields }], expiresAt }` (ISO 8601)
 * @throws {QuotaExceededError} when the hour's quota cannot take the whole batch; {AccountDeletingError} /
 *   {AccountDeletedError} for an account being or already deleted (from the quota's check of the user item)
 */
export async function createUploads(
  sub: string,
  files: readonly { contentType: string }[],
  ports: CreateUploadsPorts = adapters,
): Promise<Uploads> {
  await ports.consumeUploads(sub, files.length);
  const batchId = ports.newBatchId();
  const expiresAt = new Date(ports.now() + UPLOAD_URL_TTL_SECONDS * 1000).toISOString();
  const uploads = await Promise.all(
    files.map(async (file, n) => {
      const key = uploadKey(sub, batchId, n);
      const { url, fields } = await ports.presignUpload(key, file.contentType);
      return { key, url, fields };
    }),
  );
  return { batchId, uploads, expiresAt };
}
