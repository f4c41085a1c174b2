import { GENERATOR_TEXT } from './content';
import { DROP_REPORT_TEXT, type RefusedFile } from './drop-report';

/**
 * The upload rules of docs/product-spec.md §5, as pure functions so they are tested without a browser: which dropped files are
 * photos we take, how many fit, and which files a drop leaves out and why.
 */

/** Photos one generation may use (docs/product-spec.md §5: "Total files are capped at 10"). */
export const MAX_FILES = 10;
/** Largest photo accepted, in bytes (docs/product-spec.md §5: 10*1024*1024). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** What the rules need to know about a file: `File` has all of it. */
export interface FileLike {
  name: string;
  type: string;
  size: number;
}

const HEIC_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);
const HEIC_EXTENSION = /\.(heic|heif)$/i;

/**
 * The file's MIME type as the rules read it. Browsers often give HEIC/HEIF photos an empty type (or
 * `application/octet-stream`), so a `.heic` / `.heif` name stands in for `image/heic` / `image/heif`.
 */
export function effectiveType(file: FileLike): string {
  const type = file.type.trim().toLowerCase();
  if (type.startsWith('image/')) return type;
  const ext = HEIC_EXTENSION.exec(file.name)?.[1]?.toLowerCase();
  if (ext && (type === '' || type === 'application/octet-stream')) return `image/${ext}`;
  return type;
}

/** True for a HEIC/HEIF photo (by type, or by extension when the browser gave no image type). */
export function isHeic(file: FileLike): boolean {
  return HEIC_TYPES.has(effectiveType(file));
}

/**
 * Spec §5: the type begins with `image/` and the size is at most 10 MB. An empty file is refused too: there is no
 * photo in it, and the upload policy requires at least one byte.
 */
export function isAcceptedPhoto(file: FileLike): boolean {
  return refusalOf(file) === null;
}

/**
 * `files` in the order of `chosen`, the event's own file list (react-dropzone hands accepted and refused files over
 * separately, so their concatenation loses it). The order matters: the first photos become the references. Files
 * not found in `chosen` keep their relative order at the end.
 */
export function inChosenOrder<T extends FileLike & { lastModified?: number }>(
  files: readonly T[],
  chosen: readonly T[] | undefined,
): T[] {
  if (!chosen || chosen.length === 0) return [...files];
  const position = (file: T) => {
    const i = chosen.findIndex(
      (c) =>
        c === file || (c.name === file.name && c.size === file.size && c.lastModified === file.lastModified),
    );
    return i === -1 ? chosen.length : i;
  };
  return [...files].sort((a, b) => position(a) - position(b));
}

/**
 * Megabytes with one decimal, rounded up so a file over the limit never reads as the limit ("12.4 MB", "10.1 MB";
 * 1 MB = 1024 × 1024 bytes, as the limit).
 */
export function formatMegabytes(bytes: number): string {
  const tenths = Math.ceil(bytes / (1024 * 1024) / 0.1 - 1e-9);
  return `${(tenths / 10).toFixed(1).replace(/\.0$/, '')} MB`;
}

/**
 * Why `file` is refused, naming it and the rule it broke (issue 27.6), or `null` when it is accepted:
 * 'photo.pdf is not a photo. Use JPG, PNG or HEIC.', 'photo.jpg is 12.4 MB; the limit is 10 MB.',
 * 'photo.jpg is empty.'
 *
 * @param bytesArePhoto false when the file's first bytes are no photo format (utils/file-signature.ts), e.g. a PDF
 *   renamed `.jpg`
 */
export function refusalOf(file: FileLike, bytesArePhoto = true): string | null {
  const name = file.name || 'This file';
  if (!effectiveType(file).startsWith('image/') || !bytesArePhoto) return GENERATOR_TEXT.notAPhoto(name);
  if (file.size === 0) return GENERATOR_TEXT.emptyFile(name);
  if (file.size > MAX_FILE_BYTES) return GENERATOR_TEXT.tooLarge(name, formatMegabytes(file.size));
  return null;
}

/** What {@link selectFiles} decided for one drop or pick. */
export interface FileSelection<T extends FileLike> {
  /** The files to add, in the order they were dropped. */
  accepted: T[];
  /** Every file left out, with the rule it broke, in the order they were dropped. */
  refused: RefusedFile[];
  /**
   * 'Please upload valid image files (max 10MB each)' when no file was valid, 'Maximum 10 files allowed. Some files
   * were not added.' when the cap of 10 cut valid files, else null.
   */
  note: string | null;
}

/**
 * Applies docs/product-spec.md §5 to one drop or pick, naming each file it leaves out and the rule it broke (issue
 * 27.6; listed under the dropzone, issue 35): a file that is no photo, empty or over 10 MB ({@link refusalOf}), and
 * valid files beyond the cap of 10 (counting the photos already there: '{name} was not added: the limit is 10
 * photos.'). The rule's sentence comes with it ({@link FileSelection.note}).
 *
 * @param existingCount photos already in the wizard
 * @param files everything the user dropped or picked, in order
 * @param bytesArePhoto whether a file's first bytes are a photo format (all are, unless given)
 */
export function selectFiles<T extends FileLike>(
  existingCount: number,
  files: readonly T[],
  bytesArePhoto: (file: T) => boolean = () => true,
): FileSelection<T> {
  const refusals = files.map((file) => refusalOf(file, bytesArePhoto(file)));
  const valid = files.filter((_, i) => refusals[i] === null);
  const room = Math.max(0, MAX_FILES - existingCount);
  const accepted = valid.slice(0, room);
  const overTheCap = new Set(valid.slice(room));
  const refused = files.flatMap((file, i): RefusedFile[] => {
    const name = file.name || 'This file';
    const reason = refusals[i] ?? (overTheCap.has(file) ? DROP_REPORT_TEXT.overTheCap(name) : null);
    return reason === null ? [] : [{ name, reason }];
  });
  const note =
    valid.length === 0
      ? GENERATOR_TEXT.invalidFiles
      : overTheCap.size > 0
        ? GENERATOR_TEXT.tooManyFiles
        : null;
  return { accepted, refused, note };
}
