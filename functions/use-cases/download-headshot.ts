import { getHeadshot, type HeadshotRecord } from '../adapters/headshots/records';
import { presignHeadshotDownload, presignVersionDownload } from '../adapters/headshots/urls';
import { listHeadshotVersions } from '../adapters/headshots/versions';
import type { HeadshotDownload } from '../contracts/headshot';
import { ItemNotFoundError } from '../domain/errors';
import { versionFileName } from '../domain/headshot-versions';
import type { HeadshotVariant } from '../domain/headshot-variants';
import { DOWNLOAD_URL_TTL_SECONDS } from '../domain/presigned-urls';
import { headshotNotFound } from './headshot-view';

/**
 * What a download needs from the outside world: the headshot (and its versions), and a presigned GET of one of its
 * files.
 */
export interface DownloadHeadshotPorts {
  getHeadshot: typeof getHeadshot;
  presignHeadshotDownload: typeof presignHeadshotDownload;
  listHeadshotVersions: typeof listHeadshotVersions;
  presignVersionDownload: typeof presignVersionDownload;
}

const adapters: DownloadHeadshotPorts = {
  getHeadshot,
  presignHeadshotDownload,
  listHeadshotVersions,
  presignVersionDownload,
};

/** Which file to download: a variant of the headshot, or of one of its versions (issue 36). */
export interface DownloadedFile {
  variant: HeadshotVariant;
  /** A version's id (`GET …/download?version=`); absent: the headshot's own file. */
  version?: string | undefined;
}

/**
 * A download of one of the caller's headshots, `GET /api/headshots/{id}/download` (docs/product-spec.md §2
 * "Downloads"): a presigned GET of the asked file (`square`, `portrait` or `original`) of the headshot or of one of
 * its versions, that saves it under its file name (a version's says its place: `…-<n>-v<k>-<variant>.<ext>`,
 * domain/headshot-versions.ts), valid {@link DOWNLOAD_URL_TTL_SECONDS} from `now`.
 *
 * @param now epoch ms (tests)
 * @returns `{ url, fileName, expiresAt }` (`expiresAt` ISO 8601: when the URL stops working)
 * @throws {ItemNotFoundError} for an unknown id and another user's headshot alike, for a version the headshot does
 *   not have, and for a portrait or original of a headshot made before there were any
 */
export async function downloadHeadshot(
  sub: string,
  id: string,
  file: DownloadedFile,
  now = Date.now(),
  ports: DownloadHeadshotPorts = adapters,
): Promise<HeadshotDownload> {
  const headshot = await ports.getHeadshot(sub, id);
  if (!headshot) throw headshotNotFound();
  const download =
    file.version === undefined
      ? await ports.presignHeadshotDownload(headshot, file.variant)
      : await presignVersion(sub, headshot, file.version, file.variant, ports);
  if (!download)
    throw new ItemNotFoundError(`This headshot was made before ${file.variant} downloads existed.`);
  return { ...download, expiresAt: new Date(now + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString() };
}

/** A version's file, named by its place among the headshot's versions (oldest first). */
async function presignVersion(
  sub: string,
  headshot: HeadshotRecord,
  versionId: string,
  variant: HeadshotVariant,
  ports: DownloadHeadshotPorts,
): Promise<{ url: string; fileName: string } | undefined> {
  const versions = await ports.listHeadshotVersions(sub, headshot.id);
  const k = versions.findIndex((v) => v.id === versionId) + 1;
  const version = versions[k - 1];
  if (!version) throw headshotNotFound();
  const fileName = versionFileName(headshot, k, variant, version.transparent);
  const url = await ports.presignVersionDownload(version, variant, fileName);
  return url === undefined ? undefined : { url, fileName };
}
