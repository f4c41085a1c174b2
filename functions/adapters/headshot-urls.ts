import type { HeadshotRecord } from './headshots/records';
import { DOWNLOAD_URL_TTL_SECONDS } from './storage';
import { presignGet, reuseScope, type GetOverrides } from './url-signer';

/**
 * A headshot's presigned image URLs (docs/architecture.md §3, image URLs): local signing only, so a function that
 * shows headshots needs no more than read access to `results/`.
 */

/**
 * The presigned GET URLs of a headshot's images, valid at least {@link DOWNLOAD_URL_TTL_SECONDS} (15 minutes) and
 * the same for 5 minutes (adapters/url-signer.ts), so the browser's image cache serves them again.
 */
export interface HeadshotUrls {
  /** The WebP thumbnail (≤ 384 px). */
  thumbnailUrl: string;
  /** The 1024×1024 JPEG, shown inline. */
  imageUrl: string;
  /** The same JPEG as an attachment named `headshot-<id>.jpg`. */
  downloadUrl: string;
}

function presign(key: string, options: GetOverrides & { reuse: boolean }, now = Date.now()) {
  return presignGet('results', key, DOWNLOAD_URL_TTL_SECONDS, options, now);
}

/** A headshot's URLs per {@link reuseScope}: ~1.5 KB each. */
const URL_SETS = 1000;
const urlSets = new Map<string, HeadshotUrls>();

/**
 * Presigns a headshot's image URLs (local signing, cached per 5-minute window: adapters/url-signer.ts). The three of
 * a headshot are kept together for the window too, so a gallery page looks up 30 sets, not 90 URLs.
 *
 * @param now epoch ms (tests)
 */
export async function headshotUrls(headshot: HeadshotRecord, now = Date.now()): Promise<HeadshotUrls> {
  const cacheKey = [
    await reuseScope('results', now),
    headshot.id,
    headshot.imageKey,
    headshot.thumbnailKey,
  ].join('\n');
  let urls = urlSets.get(cacheKey);
  if (!urls) {
    urls = await presignUrls(headshot, now);
    if (urlSets.size >= URL_SETS) urlSets.delete(urlSets.keys().next().value as string);
    urlSets.set(cacheKey, urls);
  }
  return urls;
}

async function presignUrls(headshot: HeadshotRecord, now: number): Promise<HeadshotUrls> {
  const [thumbnailUrl, imageUrl, downloadUrl] = await Promise.all([
    presign(headshot.thumbnailKey, { reuse: true }, now),
    presign(headshot.imageKey, { reuse: true }, now),
    presign(
      headshot.imageKey,
      { reuse: true, disposition: `attachment; filename="${downloadFileName(headshot.id)}"` },
      now,
    ),
  ]);
  return { thumbnailUrl, imageUrl, downloadUrl };
}

/** The file name a downloaded headshot gets: `headshot-<id>.jpg` (docs/product-spec.md §2). */
export function downloadFileName(id: string): string {
  return `headshot-${id}.jpg`;
}

/**
 * A presigned GET of the full-size JPEG that S3 answers with `Content-Disposition: attachment;
 * filename="headshot-<id>.jpg"` and `Content-Type: image/jpeg`, signed now and valid exactly
 * {@link DOWNLOAD_URL_TTL_SECONDS}.
 */
export function presignHeadshotDownload(headshot: HeadshotRecord): Promise<string> {
  return presign(headshot.imageKey, {
    reuse: false,
    disposition: `attachment; filename="${downloadFileName(headshot.id)}"`,
    contentType: 'image/jpeg',
  });
}
