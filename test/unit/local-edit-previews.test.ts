import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderLocalEdit } from '../../functions/adapters/image-providers/local-edits';
import { createLocalProvider } from '../../functions/adapters/image-providers/local';
import { ProviderInvalidOutputError } from '../../functions/adapters/image-providers/types';
import type { EditRequest } from '../../functions/domain/edits';
import { FIXTURE_PHOTOS } from '../helpers/generation';

/**
 * The offline provider's edit previews (issue 36; functions/adapters/image-providers/local-edits.ts), made from one
 * headshot-sized portrait (a fixture photo on the 1024×1280 canvas): each edit changes what it says, keeps the rest,
 * and carries the PREVIEW mark; a transparent background is a PNG with an alpha channel.
 */

const WIDTH = 1024;
const HEIGHT = 1280;
let source: Buffer;
let sourceRgb: Buffer;

const rgbOf = async (image: Buffer) => sharp(image).removeAlpha().raw().toBuffer();
/** Mean absolute difference per channel (0-255) over a rectangle of two same-sized RGB images. */
function difference(a: Buffer, b: Buffer, rect = { left: 0, top: 0, width: WIDTH, height: HEIGHT }): number {
  let sum = 0;
  for (let y = rect.top; y < rect.top + rect.height; y++)
    for (let x = rect.left; x < rect.left + rect.width; x++)
      for (let c = 0; c < 3; c++) sum += Math.abs(a[(y * WIDTH + x) * 3 + c]! - b[(y * WIDTH + x) * 3 + c]!);
  return sum / (rect.width * rect.height * 3);
}

// Each preview once per file: every render runs the face models on the headshot (not in their recording).
const rendered = new Map<string, Promise<Buffer>>();
function render(request: EditRequest): Promise<Buffer> {
  const key = JSON.stringify(request);
  if (!rendered.has(key)) rendered.set(key, renderLocalEdit(source, request));
  return rendered.get(key)!;
}

beforeAll(async () => {
  source = await sharp(`${FIXTURE_PHOTOS}obama.jpg`)
    .resize(WIDTH, HEIGHT, { fit: 'cover', position: 'top' })
    .jpeg({ quality: 95 })
    .toBuffer();
  sourceRgb = await rgbOf(source);
});

describe('the local provider: edit previews of the headshot itself', () => {
  it('puts the person on a custom colour, keeping the face', async () => {
    const edited = await render({ kind: 'background', background: { type: 'colour', colour: '#1f6feb' } });
    expect(await sharp(edited).metadata()).toMatchObject({ format: 'jpeg', width: WIDTH, height: HEIGHT });
    const rgb = await rgbOf(edited);
    // The top corners were the office; now the colour (JPEG: within a few levels).
    for (const x of [10, WIDTH - 10]) {
      const i = (10 * WIDTH + x) * 3;
      expect(
        Math.abs(rgb[i]! - 0x1f) + Math.abs(rgb[i + 1]! - 0x6f) + Math.abs(rgb[i + 2]! - 0xeb),
      ).toBeLessThan(12);
    }
    // The face (the middle of the upper third) is the headshot's own.
    expect(difference(rgb, sourceRgb, { left: 420, top: 150, width: 180, height: 200 })).toBeLessThan(4);
  });

  it('makes a transparent background a PNG whose alpha is the person', async () => {
    const edited = await render({ kind: 'background', background: { type: 'transparent' } });
    expect(await sharp(edited).metadata()).toMatchObject({ format: 'png', channels: 4, hasAlpha: true });
    const { data } = await sharp(edited).raw().toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * WIDTH + x) * 4 + 3]!;
    expect(alphaAt(10, 10)).toBe(0);
    expect(alphaAt(WIDTH - 10, 10)).toBe(0);
    expect(alphaAt(512, 260)).toBe(255);
  });

  it('keeps the image for an outfit and labels it with the outfit above the mark', async () => {
    const edited = await rgbOf(await render({ kind: 'outfit', outfit: 'suit-and-tie' }));
    const plain = await rgbOf(
      await render({ kind: 'upscale' }).then((b) => sharp(b).resize(WIDTH, HEIGHT).toBuffer()),
    );
    // Above the marks, the picture is the headshot's.
    expect(difference(edited, sourceRgb, { left: 0, top: 0, width: WIDTH, height: 900 })).toBeLessThan(3);
    // The label's band (above the PREVIEW pill, bottom left of the square) is marked; without a label it is not.
    const band = { left: 30, top: 930, width: 200, height: 30 };
    expect(difference(edited, sourceRgb, band)).toBeGreaterThan(15);
    expect(difference(plain, sourceRgb, band)).toBeLessThan(difference(edited, sourceRgb, band) / 2);
  });

  it('smooths more for a polished retouch than for a natural one', async () => {
    const [natural, polished] = await Promise.all(
      (['natural', 'polished'] as const).map(async (strength) =>
        rgbOf(await render({ kind: 'retouch', strength })),
      ),
    );
    const face = { left: 420, top: 150, width: 180, height: 200 };
    const gentle = difference(natural!, sourceRgb, face);
    expect(gentle).toBeGreaterThan(0.3);
    expect(difference(polished!, sourceRgb, face)).toBeGreaterThan(gentle);
  });

  it('reframes on the same canvas, and upscales to the largest 4:5 canvas', async () => {
    const tighter = await render({ kind: 'reframe', framing: 'tighter' });
    expect(await sharp(tighter).metadata()).toMatchObject({ width: WIDTH, height: HEIGHT });
    expect(difference(await rgbOf(tighter), sourceRgb)).toBeGreaterThan(10);
    expect(await sharp(await render({ kind: 'upscale' })).metadata()).toMatchObject({
      width: 1664,
      height: 2080,
    });
  });

  it('answers an edit through the provider, and refuses an image it cannot decode', async () => {
    const provider = createLocalProvider();
    const request = {
      prompt: 'p',
      references: [],
      style: 'professional' as const,
      background: 'office' as const,
      slot: 0,
      generationId: 'g',
    };
    const edited = await provider.generate({
      ...request,
      edit: { image: source, request: { kind: 'upscale' } },
    });
    expect((await sharp(edited).metadata()).width).toBe(1664);
    await expect(
      provider.generate({
        ...request,
        edit: { image: Buffer.from('not an image'), request: { kind: 'upscale' } },
      }),
    ).rejects.toBeInstanceOf(ProviderInvalidOutputError);
  });
});
