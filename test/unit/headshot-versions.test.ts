import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeCanvas, encodeHeadshotFiles } from '../../functions/adapters/headshot-files';
import {
  isTransparentEdit,
  versionContentType,
  versionFileName,
} from '../../functions/domain/headshot-versions';
import { planVariants } from '../../functions/domain/headshot-variants';
import { versionVariantKey } from '../../functions/domain/object-keys';

/*
 * Versions of a headshot (issue 36): their file names, keys and content types (domain/headshot-versions.ts,
 * domain/object-keys.ts), and the codec keeping a transparent edit's alpha channel (adapters/headshot-files.ts).
 */

const HEADSHOT = { style: 'business-casual', background: 'office', slot: 2 };

describe('a version’s files', () => {
  it('are named after the headshot with -v<k>, PNG throughout when transparent', () => {
    expect(versionFileName(HEADSHOT, 2, 'square', false)).toBe(
      'headshot-business-casual-office-3-v2-square.jpg',
    );
    expect(versionFileName(HEADSHOT, 1, 'original', false)).toBe(
      'headshot-business-casual-office-3-v1-original.png',
    );
    expect(versionFileName(HEADSHOT, 1, 'portrait', true)).toBe(
      'headshot-business-casual-office-3-v1-portrait.png',
    );
    expect(versionContentType('square', false)).toBe('image/jpeg');
    expect(versionContentType('portrait', true)).toBe('image/png');
  });

  it('sort right after their headshot’s own files', () => {
    const names = [
      versionFileName(HEADSHOT, 1, 'square', false),
      'headshot-business-casual-office-4-square.jpg',
      'headshot-business-casual-office-3-square.jpg',
      'headshot-business-casual-office-3-portrait.jpg',
    ].sort();
    expect(names).toEqual([
      'headshot-business-casual-office-3-portrait.jpg',
      'headshot-business-casual-office-3-square.jpg',
      'headshot-business-casual-office-3-v1-square.jpg',
      'headshot-business-casual-office-4-square.jpg',
    ]);
  });

  it('live under the edit generation’s folder, .png for a transparent square and portrait', () => {
    expect(versionVariantKey('u', 'G', 0, 'square', false)).toBe('results/u/G/0.jpg');
    expect(versionVariantKey('u', 'G', 0, 'square', true)).toBe('results/u/G/0.png');
    expect(versionVariantKey('u', 'G', 0, 'portrait', true)).toBe('results/u/G/portrait/0.png');
    expect(versionVariantKey('u', 'G', 0, 'original', true)).toBe('results/u/G/original/0.png');
  });

  it('keep an alpha channel only for a transparent background', () => {
    expect(isTransparentEdit({ kind: 'background', background: { type: 'transparent' } })).toBe(true);
    expect(isTransparentEdit({ kind: 'background', background: { type: 'colour', colour: '#1f6feb' } })).toBe(
      false,
    );
    expect(isTransparentEdit({ kind: 'upscale' })).toBe(false);
  });
});

describe('the codec of a transparent edit', () => {
  /** A 256 × 320 PNG: transparent, with an opaque blue block in the middle (small: the square is scaled up). */
  async function cutOut(): Promise<Buffer> {
    const block = await sharp({
      create: { width: 128, height: 128, channels: 4, background: { r: 20, g: 40, b: 200, alpha: 1 } },
    })
      .png()
      .toBuffer();
    return sharp({
      create: { width: 256, height: 320, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([{ input: block, left: 64, top: 96 }])
      .png()
      .toBuffer();
  }

  it('keeps the alpha: PNG square and portrait, a WebP thumbnail with alpha, a transparent corner', async () => {
    const canvas = await decodeCanvas(await cutOut(), true);
    expect(canvas.alpha).toBe(true);
    const files = await encodeHeadshotFiles(canvas, planVariants(canvas, undefined));
    for (const [file, format] of [
      [files.square, 'png'],
      [files.portrait, 'png'],
      [files.original, 'png'],
      [files.thumbnail, 'webp'],
    ] as const) {
      expect(await sharp(file).metadata()).toMatchObject({ format, hasAlpha: true });
    }
    const corner = await sharp(files.square)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(corner[3]).toBe(0);
  });

  it('flattens the same image on white for every other edit: JPEG square and portrait, no alpha', async () => {
    const canvas = await decodeCanvas(await cutOut());
    expect(canvas.alpha).toBeUndefined();
    const files = await encodeHeadshotFiles(canvas, planVariants(canvas, undefined));
    expect(await sharp(files.square).metadata()).toMatchObject({ format: 'jpeg', hasAlpha: false });
    const corner = await sharp(files.square)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer();
    // White, give or take JPEG's rounding.
    expect([...corner].every((channel) => channel >= 250)).toBe(true);
    expect(corner).toHaveLength(3);
  });
});
