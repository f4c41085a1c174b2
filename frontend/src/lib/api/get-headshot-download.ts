import { apiCall } from '../api-client';
import { headshotDownloadSchema, type HeadshotDownload } from './contracts';

/**
 * `GET /api/headshots/{id}/download`: a fresh presigned URL that S3 serves as an attachment named
 * `headshot-{id}.jpg` (valid 15 minutes).
 * @throws {ApiError} 404 when the headshot was deleted; `INVALID_RESPONSE` for an unexpected answer
 */
export function getHeadshotDownload(id: string): Promise<HeadshotDownload> {
  return apiCall(`/headshots/${encodeURIComponent(id)}/download`, headshotDownloadSchema);
}
