import { apiCall } from '../api-client';
import { headshotDownloadSchema, type HeadshotDownload, type HeadshotVariant } from './contracts';

/**
 * `GET /api/headshots/{id}/download?variant=square|portrait|original`: a fresh presigned URL that S3 serves as an
 * attachment named `headshot-<style>-<background>-<n>-<variant>.jpg|png` (valid 15 minutes); with `version`, that
 * version's file instead (issue 36: `&version=<id>`; a transparent version's files are PNG).
 * @throws {ApiError} 404 when the headshot was deleted (or has no such file); `INVALID_RESPONSE` for an unexpected
 *   answer
 */
export function getHeadshotDownload(
  id: string,
  variant: HeadshotVariant = 'square',
  version?: string,
): Promise<HeadshotDownload> {
  const query = new URLSearchParams({ variant });
  if (version) query.set('version', version);
  return apiCall(`/headshots/${encodeURIComponent(id)}/download?${query}`, headshotDownloadSchema);
}
