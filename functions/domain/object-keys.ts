/**
 * S3 object keys (docs/architecture.md §3, §4). Every key starts with the owner's Cognito `sub`, so ownership is a prefix
 * check and an IAM/bucket policy can scope by prefix too.
 *
 * - uploads bucket: `uploads/<sub>/<batchId>/<n>` (the browser's presigned POST) and
 *   `uploads/<sub>/<batchId>/normalized/<n>.jpg` (PrepareReferences' upright, metadata-free JPEG copy);
 * - results bucket: `results/<sub>/<generationId>/<slot>.jpg` (the 1024×1024 square JPEG),
 *   `results/<sub>/<generationId>/thumbnails/<slot>.webp`, and the other downloads of a headshot
 *   (./headshot-variants.ts): `results/<sub>/<generationId>/portrait/<slot>.jpg` (4:5 JPEG) and
 *   `results/<sub>/<generationId>/original/<slot>.png` (the provider's whole image, PNG); and, under `work/`, the
 *   provider's raw image of a slot between the CallProvider and FinishHeadshot tasks,
 *   `work/<sub>/<generationId>/<slot>` (no customer-facing function may read `work/`; it expires after a day,
 *   infrastructure/constructs/storage.ts); and, under `partial/`, an edit's latest partial image while the provider
 *   streams it, `partial/<sub>/<generationId>/<slot>/<index>.png` (read only by the generation view, to presign it).
 */
import type { HeadshotVariant } from './headshot-variants';

// Crockford base32 ULIDs, as the `ulid` package makes them.
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ULID_RE = new RegExp(`^${ULID}$`);

/** True when `id` is a ULID (the ids of batches, generations and headshots). */
export function isUlid(id: string): boolean {
  return ULID_RE.test(id);
}

/** The key of the `n`th file (0-based) of an upload batch. */
export function uploadKey(sub: string, batchId: string, n: number): string {
  return `uploads/${sub}/${batchId}/${n}`;
}

/** The prefix under which every upload of `sub` lives. */
export function uploadPrefix(sub: string): string {
  return `uploads/${sub}/`;
}

/** The prefix under which every headshot image of `sub` lives (the results bucket). */
export function resultsPrefix(sub: string): string {
  return `results/${sub}/`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * True only for a key {@link uploadKey} could have made for this user: the caller's own prefix, a ULID batch and a
 * file number. Rejects other users' keys, normalized copies, `..` tricks and anything else.
 */
export function isOwnUploadKey(sub: string, key: string): boolean {
  return new RegExp(`^${escape(uploadPrefix(sub))}${ULID}/\\d{1,2}$`).test(key);
}

/** The key of the normalized JPEG copy of an upload (same batch folder, `normalized/<n>.jpg`). */
export function normalizedKey(uploadKeyValue: string): string {
  const slash = uploadKeyValue.lastIndexOf('/');
  return `${uploadKeyValue.slice(0, slash)}/normalized/${uploadKeyValue.slice(slash + 1)}.jpg`;
}

/** The key of a generation's headshot image for one slot (1024×1024 JPEG). */
export function headshotImageKey(sub: string, generationId: string, slot: number): string {
  return `results/${sub}/${generationId}/${slot}.jpg`;
}

/** The key of a headshot's WebP thumbnail. */
export function headshotThumbnailKey(sub: string, generationId: string, slot: number): string {
  return `results/${sub}/${generationId}/thumbnails/${slot}.webp`;
}

/** The key prefix of the provider's raw images between CallProvider and FinishHeadshot (results bucket). */
export const WORK_PREFIX = 'work/';

/**
 * The key of one slot's raw provider image (the bytes the provider answered, not yet checked or encoded), written
 * by CallProvider and read, then deleted, by FinishHeadshot. One key per slot: a slot's next call overwrites it.
 */
export function providerImageKey(sub: string, generationId: string, slot: number): string {
  return `${WORK_PREFIX}${sub}/${generationId}/${slot}`;
}

/**
 * The key prefix of the latest partial image of a slot while the provider streams it (results bucket, issue 36): a
 * sibling of {@link WORK_PREFIX}, expiring like it; only the generation view reads it (to presign it), CallProvider
 * writes it and FinishHeadshot deletes it.
 */
export const PARTIAL_PREFIX = 'partial/';

/** OpenAI's largest `partial_images` (3: indexes 0-2), so a slot's partial keys are known without listing them. */
export const MAX_PARTIAL_IMAGES = 3;

/**
 * The key of a slot's partial image `index` (`partial/<sub>/<generationId>/<slot>/<index>.png`; the index is in the
 * key because the S3 stand-in keeps no user metadata, and one List of {@link partialImagesPrefix} answers every slot).
 */
export function partialImageKey(sub: string, generationId: string, slot: number, index: number): string {
  return `${partialImagesPrefix(sub, generationId)}${slot}/${index}.png`;
}

/** The prefix of every partial image of a generation. */
export function partialImagesPrefix(sub: string, generationId: string): string {
  return `${PARTIAL_PREFIX}${sub}/${generationId}/`;
}

/**
 * The key of one downloadable file of a headshot: the square is {@link headshotImageKey} (the key headshots had
 * before there were variants), the portrait `…/portrait/<slot>.jpg`, the original `…/original/<slot>.png`. All under
 * the generation's folder, so deleting the headshot, the user's prefix or the generation's files takes them along.
 */
export function headshotVariantKey(
  sub: string,
  generationId: string,
  slot: number,
  variant: HeadshotVariant,
): string {
  if (variant === 'square') return headshotImageKey(sub, generationId, slot);
  const extension = variant === 'original' ? 'png' : 'jpg';
  return `results/${sub}/${generationId}/${variant}/${slot}.${extension}`;
}

/**
 * The key of one downloadable file of a headshot's version (an edit's result, issue 36): the edit generation's own
 * files, beside every headshot's ({@link headshotVariantKey}, slot 0), so the same retention and deletion rules reach
 * them. A transparent version keeps its alpha channel, so its square and portrait are PNG (`<slot>.png`,
 * `portrait/<slot>.png`) instead of JPEG; its thumbnail is {@link headshotThumbnailKey} (WebP, which has alpha).
 */
export function versionVariantKey(
  sub: string,
  generationId: string,
  slot: number,
  variant: HeadshotVariant,
  transparent: boolean,
): string {
  const key = headshotVariantKey(sub, generationId, slot, variant);
  return transparent ? key.replace(/\.jpg$/, '.png') : key;
}
