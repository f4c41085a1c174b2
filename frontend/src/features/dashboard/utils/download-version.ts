import { track } from '../../../lib/analytics';
import type { HeadshotVariant } from '../../../lib/api/contracts';
import { getHeadshotDownload } from '../../../lib/api/get-headshot-download';
import { saveFile } from '../../../lib/download-headshot';
import type { HeadshotVersion } from '../api/get-versions';

/**
 * Saves one file of a version from the viewer, as a headshot's is saved (lib/download-headshot.ts): a fresh URL from
 * `GET /api/headshots/{id}/download?variant=…&version=…`, or, if that call fails, the version's own URL of that file
 * from the list; then its bytes under the file's name (a transparent version's files are PNG).
 *
 * @throws {ApiError} when no download URL can be had (the version has no such file, or was deleted)
 */
export async function downloadVersion(version: HeadshotVersion, variant: HeadshotVariant): Promise<void> {
  track('download', { from: 'gallery' });
  const own = version.variants.find((v) => v.variant === variant);
  let url: string;
  let fileName: string;
  try {
    ({ url, fileName } = await getHeadshotDownload(version.headshotId, variant, version.id));
  } catch (error) {
    if (!own) throw error;
    ({ url, fileName } = own);
  }
  await saveFile(url, fileName);
}
