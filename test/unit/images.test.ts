import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  decodeHeadshot,
  encodeHeadshotImage,
  encodeHeadshotThumbnail,
  headshotPixels,
  normalizedPixels,
  normalizePhoto,
  UnusablePhotoError,
} from '../../functions/adapters/images';
import { FIXTURE_PHOTOS } from '../helpers/generation';

const photo = (name: string) => readFileSync(`${FIXTURE_PHOTOS}${name}`);

/** A valid PNG header that claims `width` × `height` pixels, with almost no data: a "pixel bomb". */
function pixelBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function problemOf(bytes: Buffer): Promise<string> {
  try {
    await normalizePhoto(bytes);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(UnusablePhotoError);
    expect((error as Error).name).toBe('UnusablePhotoError');
    return (error as UnusablePhotoError).problem;
  }
}

describe('normalizePhoto', () => {
  it('refuses empty, oversized, non-image, vector, truncated, tiny and pixel-bomb uploads', async () => {
    const jpeg = photo('obama.jpg');
    const tiny = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    expect(await problemOf(Buffer.alloc(0))).toBe('empty');
    expect(await problemOf(Buffer.alloc(10 * 1024 * 1024 + 1, 0xff))).toBe('too-large');
    expect(await problemOf(Buffer.from('%PDF-1.7 this is not a photo'))).toBe('not-an-image');
    expect(
      await problemOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"></svg>')),
    ).toBe('not-an-image');
    expect(await problemOf(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toBe('not-an-image');
    expect(await problemOf(tiny)).toBe('too-small');
    // 60 000 × 60 000 = 3.6 gigapixels in a file of about 100 bytes: refused from the header, never decoded.
    const bomb = pixelBomb(60_000, 60_000);
    expect(bomb.length).toBeLessThan(200);
    expect(await problemOf(bomb)).toBe('too-many-pixels');
  });

  it('turns the EXIF-rotated photo upright and strips its metadata', async () => {
    const original = await sharp(photo('obama-rotated.jpg')).metadata();
    expect(original).toMatchObject({ width: 1137, height: 910, orientation: 6 });
    const normalized = await normalizePhoto(photo('obama-rotated.jpg'));
    expect(normalized).toMatchObject({ width: 820, height: 1024, sourceFormat: 'jpeg' });
    const meta = await sharp(normalized.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 820, height: 1024 });
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });

  it('decodes an HEVC HEIC (which sharp alone cannot) into a JPEG', async () => {
    const normalized = await normalizePhoto(photo('obama2.heic'));
    expect(normalized).toMatchObject({ width: 534, height: 1024, sourceFormat: 'heif' });
    expect((await sharp(normalized.jpeg).metadata()).format).toBe('jpeg');
  });

  it('flattens transparency and never enlarges a small photo', async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const normalized = await normalizePhoto(png);
    expect(normalized).toMatchObject({ width: 400, height: 300, sourceFormat: 'png' });
    const { data } = await sharp(normalized.jpeg).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(250); // transparent → white, not black
  });
});

describe('decodeHeadshot, encodeHeadshotImage and encodeHeadshotThumbnail', () => {
  it('store any provider image as a 1024×1024 JPEG and a WebP thumbnail of at most 384 px', async () => {
    const wide = await sharp({ create: { width: 1536, height: 1024, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const raster = await decodeHeadshot(wide);
    expect(raster.side).toBe(1024);
    expect(raster.data.length).toBe(1024 * 1024 * 3);
    const [image, thumbnail] = await Promise.all([
      encodeHeadshotImage(raster),
      encodeHeadshotThumbnail(raster),
    ]);
    expect(await sharp(image).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 384, height: 384 });
  });

  it('decodes a 16-bit PNG with alpha to 8-bit RGB, and refuses bytes that are no image', async () => {
    const deep = await sharp({ create: { width: 800, height: 600, channels: 4, background: '#33669980' } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    const raster = await decodeHeadshot(deep);
    expect(raster.data.length).toBe(1024 * 1024 * 3);
    await expect(decodeHeadshot(Buffer.from('nope'))).rejects.toThrow();
  });
});

describe('the headshot framing straight from the provider image', () => {
  // Left half red, right half blue, 1536×1024, a transparent strip at the top: the centred square keeps all three.
  const source = () => {
    const [width, height] = [1536, 1024];
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        rgba[i] = x < width / 2 ? 255 : 0;
        rgba[i + 2] = x < width / 2 ? 0 : 255;
        rgba[i + 3] = y < 64 ? 0 : 255;
      }
    return sharp(rgba, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
  };

  it('gives the pixels the models see the same square, colours and white background as the stored JPEG', async () => {
    const bytes = await source();
    const raster = await decodeHeadshot(bytes);
    const pixels = await headshotPixels(raster, 512);
    expect(pixels).toMatchObject({ width: 512, height: 512 });
    expect(pixels.data.length).toBe(512 * 512 * 3);
    const stored = await sharp(await encodeHeadshotImage(raster))
      .resize(512, 512)
      .raw()
      .toBuffer();
    // Every sampled pixel agrees with the stored file's within JPEG noise: same crop, same flattening.
    for (const [x, y] of [
      [10, 10],
      [100, 300],
      [400, 300],
      [500, 500],
    ] as const) {
      const i = (y * 512 + x) * 3;
      for (let c = 0; c < 3; c++) expect(Math.abs(pixels.data[i + c]! - stored[i + c]!)).toBeLessThan(24);
    }
    expect(pixels.data.subarray(0, 3)).toEqual(Buffer.from([255, 255, 255])); // transparent → white
  });

  it('makes the 384 px WebP thumbnail of the same square', async () => {
    const thumbnail = await encodeHeadshotThumbnail(await decodeHeadshot(await source()));
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 384, height: 384 });
    const { data } = await sharp(thumbnail).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 384 + x) * 3, (y * 384 + x) * 3 + 3)];
    expect(at(50, 200)[0]).toBeGreaterThan(200); // red on the left
    expect(at(330, 200)[2]).toBeGreaterThan(200); // blue on the right
  });
});

describe('normalizedPixels', () => {
  it('gives the pixels of the normalized copy (upright, ≤ 1024 px) and refuses what normalizePhoto refuses', async () => {
    const rotated = photo('obama-rotated.jpg');
    const [pixels, normalized] = await Promise.all([normalizedPixels(rotated), normalizePhoto(rotated)]);
    expect(pixels).toMatchObject({ width: normalized.width, height: normalized.height });
    expect(pixels.data.length).toBe(normalized.width * normalized.height * 3);
    const decoded = await sharp(normalized.jpeg).raw().toBuffer();
    let diff = 0;
    for (let i = 0; i < decoded.length; i += 997) diff += Math.abs(decoded[i]! - pixels.data[i]!);
    // The same picture, only without the JPEG's compression: a few levels apart on average.
    expect(diff / Math.ceil(decoded.length / 997)).toBeLessThan(6);
    await expect(normalizedPixels(Buffer.alloc(0))).rejects.toMatchObject({ problem: 'empty' });
    await expect(normalizedPixels(Buffer.from('not a photo'))).rejects.toBeInstanceOf(UnusablePhotoError);
  });
});
