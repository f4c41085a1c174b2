import { track } from './analytics';
import type { Headshot, HeadshotVariant } from './api/contracts';
import { getHeadshotDownload } from './api/get-headshot-download';

/**
 * What each downloadable file is for, as the viewer and 'Download all' offer them (docs/product-spec.md §2
 * "Downloads"), in that order. The original is the image as the model made it (e.g. 1024 × 1280, 1664 × 2080 at
 * high resolution: domain/headshot-variants.ts CANVAS_SIZES), not a "full resolution" of anything larger; the viewer
 * names each file's pixels beside its label.
 */
export const VARIANT_LABELS: Record<HeadshotVariant, string> = {
  square: 'LinkedIn (square)',
  portrait: 'Résumé (portrait 4:5)',
  original: 'Original (PNG, as generated)',
};

/**
 * The name a file of a headshot is saved under: the API's (`headshot-<style>-<background>-<n>-<variant>.jpg|png`),
 * or, for the square of an answer without its list, the headshot's `fileName`.
 */
export function headshotFileName(
  headshot: Pick<Headshot, 'fileName' | 'variants'>,
  variant: HeadshotVariant = 'square',
): string {
  return headshot.variants.find((v) => v.variant === variant)?.fileName ?? headshot.fileName;
}

/**
 * Saves one file of a headshot (the square by default) from the results grid, the gallery or the viewer, without
 * leaving the page. A fresh URL comes from `GET /api/headshots/{id}/download?variant=…` (so a page left open past
 * the 15 minutes of its URLs still works); if that call fails, the headshot's own URL of that file is used (its
 * `downloadUrl` for the square). The image lives on another origin (S3), where the `download` attribute of a link is
 * ignored, so the bytes are fetched (the bucket's CORS allows the site) and saved from a local object URL under the
 * right name. If that fetch fails too, the presigned attachment URL (`Content-Disposition: attachment; filename=…`)
 * is opened, which downloads under the same name.
 *
 * @param from where the person clicked, for the `download` analytics event
 * @throws {ApiError} when no download URL can be had (e.g. the headshot was deleted)
 */
export async function downloadHeadshot(
  headshot: Pick<Headshot, 'id' | 'downloadUrl' | 'fileName' | 'variants'>,
  from: 'gallery' | 'results',
  variant: HeadshotVariant = 'square',
): Promise<void> {
  track('download', { from });
  let fileName = headshotFileName(headshot, variant);
  let url: string;
  try {
    ({ url, fileName } = await getHeadshotDownload(headshot.id, variant));
  } catch (error) {
    // A results page's own URLs are still good for 15 minutes after its last poll.
    const own =
      variant === 'square' ? headshot.downloadUrl : headshot.variants.find((v) => v.variant === variant)?.url;
    if (!own) throw error;
    url = own;
  }
  await saveFile(url, fileName);
}

/**
 * Saves the file at `url` (another origin: S3) under `fileName` without leaving the page: its bytes are fetched (the
 * bucket's CORS allows the site) and saved from a local object URL, since a link's `download` attribute is ignored
 * across origins; if that fetch fails, the URL itself is opened (a presigned attachment downloads under its name).
 */
export async function saveFile(url: string, fileName: string): Promise<void> {
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
