import { headshotDownloadQuerySchema, type HeadshotDownload } from '../contracts/headshot';
import { downloadHeadshot } from '../use-cases/download-headshot';
import { callerOf, httpHandler, json, parseQuery } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `GET /api/headshots/{id}/download?variant=square|portrait|original[&version=<versionId>]` (jwt, owner only) → 200
 * `{ url, fileName, expiresAt }`; with `version`, the file of that version of the headshot (issue 36), named
 * `headshot-<style>-<background>-<n>-v<k>-<variant>.<ext>` (`k` its place, oldest first; PNG for a transparent one).
 *
 * `url` is a presigned GET of the asked file (docs/product-spec.md §2 "Downloads"; default `square`, the 1024×1024
 * JPEG; `portrait` the 4:5 JPEG; `original` the full-resolution PNG), valid 15 minutes, that S3 serves with its
 * `Content-Type` and `Content-Disposition: attachment; filename="headshot-<style>-<background>-<n>-<variant>.<ext>"`,
 * so opening it saves the file under that name. `fileName` is that name; `expiresAt` (ISO 8601) is when the URL stops
 * working.
 *
 * Errors: 400 `VALIDATION_ERROR` for another `variant`; 404 `NOT_FOUND` for an unknown id and for another user's
 * headshot alike, for a version the headshot does not have, and for a portrait or original of a headshot made before
 * there were any (it has only the square).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = headshotIdOf(event);
  const file = parseQuery(event, headshotDownloadQuerySchema);
  return json<HeadshotDownload>(200, await downloadHeadshot(sub, id, file));
});
