import { HEADSHOT_SIDE } from '../../domain/headshot-images';
import { VARIANT_CONTENT_TYPES, variantFileName, type HeadshotVariant } from '../../domain/headshot-variants';
import { versionContentType } from '../../domain/headshot-versions';
import type { HeadshotRecord } from './records';
import { DOWNLOAD_URL_TTL_SECONDS } from '../../domain/presigned-urls';
import { presignGet, reuseScope, type GetOverrides } from '../support/url-signer';

/**
 * A headshot's presigned image URLs (docs/architecture.md §3, image URLs): local signing only, so a function that
 * shows headshots needs no more than read access to `results/`.
 */

/**
 * The presigned GET URLs of a headshot's images, valid at least {@link DOWNLOAD_URL_TTL_SECONDS} (15 minutes) and
 * the same for 5 minutes (adapters/support/url-signer.ts), so the browser's image cache serves them again.
 */
export interface HeadshotUrls {
  /** The WebP thumbnail (≤ 384 px). */
  thumbnailUrl: string;
  /** The 1024×1024 JPEG, shown inline. */
  imageUrl: string;
  /** The same JPEG as an attachment named as {@link downloadFileName} says. */
  downloadUrl: string;
  /** Each stored file (the square; the portrait and the original when it has them), inline: the ZIP's sources. */
  variants: VariantLink[];
}

/** One downloadable file of a headshot, as the API lists it. */
export interface VariantLink {
  variant: HeadshotVariant;
  /** Pixels. */
  width: number;
  height: number;
  /** The name it is saved under (domain/headshot-variants.ts `variantFileName`). */
  fileName: string;
  /** Presigned GET, inline (no attachment header: the browser fetches it into a ZIP). */
  url: string;
}

/** The stored files of a headshot: the 1024² square always, the others when it was made with them. */
export function storedVariants(
  headshot: Pick<HeadshotRecord, 'imageKey' | 'variants'>,
): { variant: HeadshotVariant; key: string; width: number; height: number }[] {
  const side = HEADSHOT_SIDE;
  const square = { variant: 'square' as const, key: headshot.imageKey, width: side, height: side };
  if (!headshot.variants) return [square];
  const { portrait, original } = headshot.variants;
  return [
    square,
    { variant: 'portrait', key: portrait.key, width: portrait.width, height: portrait.height },
    { variant: 'original', key: original.key, width: original.width, height: original.height },
  ];
}

function presign(key: string, options: GetOverrides & { reuse: boolean }, now = Date.now()) {
  return presignGet('results', key, DOWNLOAD_URL_TTL_SECONDS, options, now);
}

/** A headshot's URLs per {@link reuseScope}: ~1.5 KB each. */
const URL_SETS = 1000;
const urlSets = new Map<string, HeadshotUrls>();

/**
 * Presigns a headshot's image URLs (local signing, cached per 5-minute window: adapters/support/url-signer.ts). The three of
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
    headshot.variants?.original.key ?? '',
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
  const others = storedVariants(headshot).filter((v) => v.variant !== 'square');
  const [thumbnailUrl, imageUrl, downloadUrl, ...otherUrls] = await Promise.all([
    presign(headshot.thumbnailKey, { reuse: true }, now),
    presign(headshot.imageKey, { reuse: true }, now),
    presign(
      headshot.imageKey,
      { reuse: true, disposition: `attachment; filename="${downloadFileName(headshot)}"` },
      now,
    ),
    ...others.map((v) => presign(v.key, { reuse: true }, now)),
  ]);
  const variants = storedVariants(headshot).map(({ variant, width, height }) => ({
    variant,
    width,
    height,
    fileName: variantFileName(headshot, variant),
    url: variant === 'square' ? imageUrl : otherUrls[others.findIndex((v) => v.variant === variant)]!,
  }));
  return { thumbnailUrl, imageUrl, downloadUrl, variants };
}

/**
 * The file name a downloaded square gets: `headshot-<style>-<background>-<n>-square.jpg` (docs/product-spec.md §2,
 * domain/headshot-variants.ts `variantFileName`).
 */
export function downloadFileName(headshot: Pick<HeadshotRecord, 'style' | 'background' | 'slot'>): string {
  return variantFileName(headshot, 'square');
}

/**
 * A presigned GET of one stored file of a headshot that S3 answers with `Content-Disposition: attachment;
 * filename="<variantFileName>"` and its content type (`image/jpeg`, or `image/png` for the original), signed now and
 * valid exactly {@link DOWNLOAD_URL_TTL_SECONDS}.
 *
 * @returns the URL and the file name, or `undefined` when the headshot has no such file (made before variants)
 */
export async function presignHeadshotDownload(
  headshot: HeadshotRecord,
  variant: HeadshotVariant = 'square',
): Promise<{ url: string; fileName: string } | undefined> {
  const stored = storedVariants(headshot).find((v) => v.variant === variant);
  if (!stored) return undefined;
  const fileName = variantFileName(headshot, variant);
  const url = await presign(stored.key, {
    reuse: false,
    disposition: `attachment; filename="${fileName}"`,
    contentType: VARIANT_CONTENT_TYPES[variant],
  });
  return { url, fileName };
}

/** A version's stored files (./versions.ts): what {@link versionUrls} and {@link presignVersionDownload} sign. */
export type VersionFiles = Pick<HeadshotRecord, 'imageKey' | 'thumbnailKey' | 'variants'> & {
  transparent: boolean;
};

/**
 * The presigned inline GET URLs of a version's files (issue 36), valid at least {@link DOWNLOAD_URL_TTL_SECONDS} and
 * reused within the signer's window, as a headshot's. `fileNameOf` names each file (domain/headshot-versions.ts
 * `versionFileName`: it needs the root headshot and the version's place, which the caller knows).
 *
 * @param now epoch ms (tests)
 */
export async function versionUrls(
  version: VersionFiles,
  fileNameOf: (variant: HeadshotVariant) => string,
  now = Date.now(),
): Promise<Omit<HeadshotUrls, 'downloadUrl'>> {
  const files = storedVariants(version);
  const [thumbnailUrl, ...urls] = await Promise.all([
    presign(version.thumbnailKey, { reuse: true }, now),
    ...files.map((file) => presign(file.key, { reuse: true }, now)),
  ]);
  const variants = files.map(({ variant, width, height }, i) => ({
    variant,
    width,
    height,
    fileName: fileNameOf(variant),
    url: urls[i]!,
  }));
  return { thumbnailUrl, imageUrl: urls[0]!, variants };
}

/**
 * A presigned GET of one stored file of a version that S3 answers as an attachment named `fileName`, with its content
 * type (domain/headshot-versions.ts `versionContentType`: PNG for a transparent version), signed now and valid
 * exactly {@link DOWNLOAD_URL_TTL_SECONDS}.
 *
 * @returns the URL, or `undefined` when the version has no such file
 */
export async function presignVersionDownload(
  version: VersionFiles,
  variant: HeadshotVariant,
  fileName: string,
): Promise<string | undefined> {
  const stored = storedVariants(version).find((v) => v.variant === variant);
  if (!stored) return undefined;
  return presign(stored.key, {
    reuse: false,
    disposition: `attachment; filename="${fileName}"`,
    contentType: versionContentType(variant, version.transparent),
  });
}
