/**
 * What a file's first bytes say it is, so a PDF renamed `photo.jpg` is refused before the wizard shows it as a
 * photo (issue 27.6). The browser's `type` comes from the name's extension only. The server's photo check still
 * decodes every upload and decides; this only spares the customer a tile that was never a photo.
 *
 * Signatures: JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, GIF `GIF87a`/`GIF89a`, WebP `RIFF….WEBP`, and the
 * ISO base media formats HEIC/HEIF/AVIF (`….ftyp` + a brand), as listed in the WHATWG MIME Sniffing standard
 * (https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern) and ISO/IEC 23008-12 (HEIF brands).
 */

/** The photo formats recognised by their bytes. */
export type PhotoSignature = 'jpeg' | 'png' | 'gif' | 'webp' | 'heif';

/** HEIF-family brands (HEIC, HEIF, image sequences, AVIF) at bytes 8-11 of the `ftyp` box. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** The format `bytes` (a file's first 12 or more) start with, or `null` when they are no photo we know. */
export function signatureOf(bytes: Uint8Array): PhotoSignature | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return 'gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(bytes, 8, 12)))
    return 'heif';
  return null;
}

/** Reads the first 12 bytes of `file` and names its format; `null` when it is no photo (or cannot be read). */
export async function sniffPhoto(file: Blob): Promise<PhotoSignature | null> {
  try {
    return signatureOf(new Uint8Array(await file.slice(0, 12).arrayBuffer()));
  } catch {
    return null;
  }
}
