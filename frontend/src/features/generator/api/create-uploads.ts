import * as z from 'zod';
import { apiCall } from '../../../lib/api-client';

/** One presigned POST of `POST /api/uploads`. */
export const presignedUploadSchema = z.object({
  /** The object key; goes to `POST /api/generations` as one of `referenceKeys`. */
  key: z.string().min(1),
  url: z.string().min(1),
  /** Form fields to send before the file, in order. */
  fields: z.record(z.string(), z.string()),
});
export type PresignedUpload = z.infer<typeof presignedUploadSchema>;

/** `POST /api/uploads` answer. */
export const uploadBatchSchema = z.object({
  batchId: z.string(),
  uploads: z.array(presignedUploadSchema),
  expiresAt: z.string(),
});
export type UploadBatch = z.infer<typeof uploadBatchSchema>;

/**
 * `POST /api/uploads`: presigned POSTs for reference photos, one per file, in the same order (sizes in bytes).
 * @throws {ApiError} 400 for a type or size the service refuses, 429 over the hourly quota
 */
export function requestUploads(
  files: readonly { contentType: string; size: number }[],
  signal?: AbortSignal,
): Promise<UploadBatch> {
  return apiCall('/uploads', uploadBatchSchema, { method: 'POST', body: { files }, signal });
}
