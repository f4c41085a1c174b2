import { DOWNLOAD_URL_TTL_SECONDS } from '../adapters/storage';
import { downloadFileName, presignHeadshotDownload } from '../adapters/headshot-urls';
import { getHeadshot } from '../adapters/headshots/records';
import type { HeadshotDownload } from '../contracts';
import { callerOf, httpHandler, json } from './handler';
import { headshotIdOf, headshotNotFound } from './headshot-view';

/**
 * `GET /api/headshots/{id}/download` (jwt, owner only) → 200 `{ url, fileName, expiresAt }`.
 *
 * `url` is a presigned GET of the 1024×1024 JPEG, valid 15 minutes, that S3 serves with `Content-Type: image/jpeg`
 * and `Content-Disposition: attachment; filename="headshot-<id>.jpg"`, so opening it saves the file under that name.
 * `fileName` is that name; `expiresAt` (ISO 8601) is when the URL stops working.
 *
 * Errors: 404 `NOT_FOUND` for an unknown id and for another user's headshot alike.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = headshotIdOf(event);
  const headshot = await getHeadshot(sub, id);
  if (!headshot) throw headshotNotFound();
  return json<HeadshotDownload>(200, {
    url: await presignHeadshotDownload(headshot),
    fileName: downloadFileName(headshot.id),
    expiresAt: new Date(Date.now() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString(),
  });
});
