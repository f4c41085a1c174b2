import { apiCall } from '../../../lib/api-client';
import { uploadsSchema, type Uploads } from '../../../lib/api/contracts';

/** `POST /api/uploads` answer: one presigned POST per file, in order. */
export type UploadBatch = Uploads;
/** One presigned POST of {@link UploadBatch}. */
export type PresignedUpload = Uploads['uploads'][number];

/**
 * `POST /api/uploads`: presigned POSTs for reference photos, one per file, in the same order (sizes in bytes).
 * @throws {ApiError} 400 for a type or size the service refuses, 429 over the hourly quota
 */
export function requestUploads(
  files: readonly { contentType: string; size: number }[],
  signal?: AbortSignal,
): Promise<UploadBatch> {
  return apiCall('/uploads', uploadsSchema, { method: 'POST', body: { files }, signal });
}
