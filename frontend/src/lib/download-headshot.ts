import { track } from './analytics';
import type { Headshot } from './api/contracts';
import { getHeadshotDownload } from './api/get-headshot-download';

/** The name a downloaded headshot is saved under (docs/product-spec.md §2): `headshot-{id}.jpg`. */
export function headshotFileName(id: string): string {
  return `headshot-${id}.jpg`;
}

/**
 * Saves a headshot as `headshot-{id}.jpg`, from the results grid, the gallery or the viewer, without leaving the
 * page. A fresh URL comes from `GET /api/headshots/{id}/download` (so a page left open past the 15 minutes of its
 * URLs still works); if that call fails, the headshot's own `downloadUrl` is used when it has one. The image lives
 * on another origin (S3), where the `download` attribute of a link is ignored, so the bytes are fetched (the
 * bucket's CORS allows the site) and saved from a local object URL under the right name. If that fetch fails too,
 * the presigned attachment URL (`Content-Disposition: attachment; filename="headshot-{id}.jpg"`) is opened, which
 * downloads under the same name.
 *
 * @param from where the person clicked, for the `download` analytics event
 * @throws {ApiError} when no download URL can be had (e.g. the headshot was deleted)
 */
export async function downloadHeadshot(
  headshot: Pick<Headshot, 'id' | 'downloadUrl'>,
  from: 'gallery' | 'results',
): Promise<void> {
  track('download', { from });
  const fileName = headshotFileName(headshot.id);
  let url: string;
  try {
    url = (await getHeadshotDownload(headshot.id)).url;
  } catch (error) {
    // A results page's own URL is still good for 15 minutes after its last poll.
    if (!headshot.downloadUrl) throw error;
    url = headshot.downloadUrl;
  }
  let blob: Blob;
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    blob = await response.blob();
  } catch {
    saveFromUrl(url, fileName);
    return;
  }
  const objectUrl = URL.createObjectURL(blob);
  try {
    saveFromUrl(objectUrl, fileName);
  } finally {
    // The click has started the download; give the browser a moment before freeing the bytes.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  }
}

function saveFromUrl(href: string, fileName: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
