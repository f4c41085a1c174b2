import { getHeadshot } from '../adapters/headshots/records';
import { presignHeadshotDownload } from '../adapters/headshots/urls';
import type { HeadshotDownload } from '../contracts/headshot';
import { ItemNotFoundError } from '../domain/errors';
import type { HeadshotVariant } from '../domain/headshot-variants';
import { DOWNLOAD_URL_TTL_SECONDS } from '../domain/presigned-urls';
import { headshotNotFound } from './headshot-view';

/** What a download needs from the outside world: the headshot, and a presigned GET of one of its files. */
export interface DownloadHeadshotPorts {
  getHeadshot: typeof getHeadshot;
  presignHeadshotDownload: typeof presignHeadshotDownload;
}

const adapters: DownloadHeadshotPorts = { getHeadshot, presignHeadshotDownload };

/**
 * A download of one of the caller's headshots, `GET /api/headshots/{id}/download` (docs/product-spec.md §2
 * "Downloads"): a presigned GET of the asked file (`square`, `portrait` or `original`) that saves it under its file
 * name, valid {@link DOWNLOAD_URL_TTL_SECONDS} from `now`.
 *
 * @param now epoch ms (tests)
 * @returns `{ url, fileName, expiresAt }` (`expiresAt` ISO 8601: when the URL stops working)
 * @throws {ItemNotFoundError} for an unknown id and another user's headshot alike, and for a portrait or original
 *   of a headshot made before there were any
 */
export async function downloadHeadshot(
  sub: string,
  id: string,
  variant: HeadshotVariant,
  now = Date.now(),
  ports: DownloadHeadshotPorts = adapters,
): Promise<HeadshotDownload> {
  const headshot = await ports.getHeadshot(sub, id);
  if (!headshot) throw headshotNotFound();
  const download = await ports.presignHeadshotDownload(headshot, variant);
  if (!download) throw new ItemNotFoundError(`This headshot was made before ${variant} downloads existed.`);
  return { ...download, expiresAt: new Date(now + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString() };
}
