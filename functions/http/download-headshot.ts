import { DOWNLOAD_URL_TTL_SECONDS } from '../adapters/storage';
import { presignHeadshotDownload } from '../adapters/headshots/urls';
import { getHeadshot } from '../adapters/headshots/records';
import { headshotDownloadQuerySchema, type HeadshotDownload } from '../contracts/headshot';
import { notFound } from './errors';
import { callerOf, httpHandler, json, parseQuery } from './handler';
import { headshotIdOf, headshotNotFound } from './headshot-view';

/**
 * `GET /api/headshots/{id}/download?variant=square|portrait|original` (jwt, owner only) → 200
 * `{ url, fileName, expiresAt }`.
 *
 * `url` is a presigned GET of the asked file (docs/product-spec.md §2 "Downloads"; default `square`, the 1024×1024
 * JPEG; `portrait` the 4:5 JPEG; `original` the full-resolution PNG), valid 15 minutes, that S3 serves with its
 * `Content-Type` and `Content-Disposition: attachment; filename="headshot-<style>-<background>-<n>-<variant>.<ext>"`,
 * so opening it saves the file under that name. `fileName` is that name; `expiresAt` (ISO 8601) is when the URL stops
 * working.
 *
 * Errors: 400 `VALIDATION_ERROR` for another `variant`; 404 `NOT_FOUND` for an unknown id and for another user's
 * headshot alike, and for a portrait or original of a headshot made before there were any (it has only the square).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = headshotIdOf(event);
  const { variant } = parseQuery(event, headshotDownloadQuerySchema);
  const headshot = await getHeadshot(sub, id);
  if (!headshot) throw headshotNotFound();
  const download = await presignHeadshotDownload(headshot, variant);
  if (!download) throw notFound(`This headshot was made before ${variant} downloads existed.`);
  return json<HeadshotDownload>(200, {
    ...download,
    expiresAt: new Date(Date.now() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString(),
  });
});
