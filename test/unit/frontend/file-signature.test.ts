import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signatureOf, sniffPhoto } from '../../../frontend/src/features/generator/utils/file-signature';

/* A file's first bytes decide whether it is a photo before the wizard shows it as one (issue 27.6). */

const PHOTOS = fileURLToPath(new URL('../../fixtures/photos/', import.meta.url));
const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('photo signatures', () => {
  it('recognises the fixtures by their bytes: JPEG and HEIC', async () => {
    expect(await sniffPhoto(new Blob([readFileSync(PHOTOS + 'obama.jpg')]))).toBe('jpeg');
    expect(await sniffPhoto(new Blob([readFileSync(PHOTOS + 'obama2.heic')]))).toBe('heif');
  });

  it('recognises PNG, GIF, WebP and AVIF headers', () => {
    expect(signatureOf(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0))).toBe('png');
    expect(signatureOf(bytes('GIF89a', 0, 0, 0, 0, 0, 0))).toBe('gif');
    expect(signatureOf(bytes('RIFF', 1, 2, 3, 4, 'WEBP'))).toBe('webp');
    expect(signatureOf(bytes(0, 0, 0, 0x1c, 'ftypavif'))).toBe('heif');
  });

  it('refuses a PDF renamed .jpg, an MP4, text and an empty file', async () => {
    expect(signatureOf(bytes('%PDF-1.7', 0x0a, 0, 0, 0))).toBeNull();
    expect(signatureOf(bytes(0, 0, 0, 0x18, 'ftypmp42'))).toBeNull();
    expect(await sniffPhoto(new Blob(['hello, this is text']))).toBeNull();
    expect(await sniffPhoto(new Blob([]))).toBeNull();
  });
});
