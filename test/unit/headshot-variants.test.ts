import { describe, expect, it } from 'vitest';
import {
  canvasSize,
  contains,
  megapixelFactor,
  planVariants,
  portraitRect,
  sizeParameter,
  squareRect,
  takesHighResolution,
  variantFileName,
} from '../../functions/domain/headshot-variants';
import { headshotVariantKey } from '../../functions/domain/object-keys';
import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  OPENAI_IMAGE_MODELS,
  openAiImageModel,
} from '../../functions/domain/openai-image-models';
import { planEdit } from '../../functions/adapters/image-providers/openai-params';

/** OpenAI's flexible grid (docs/openai-image-models.md), as the strict stand-in checks it. */
function onFlexibleGrid({ width, height }: { width: number; height: number }): boolean {
  return (
    width % 16 === 0 &&
    height % 16 === 0 &&
    Math.max(width, height) <= 3840 &&
    Math.max(width, height) / Math.min(width, height) <= 3 &&
    width * height >= 655_360 &&
    width * height <= 8_294_400
  );
}

describe('the canvas each model is asked for', () => {
  const standardSizes = ['1024x1024', '1536x1024', '1024x1536'];

  it('asks every model for a size it takes: the flexible grid, or a standard size', () => {
    for (const model of OPENAI_IMAGE_MODELS) {
      for (const resolution of ['standard', 'high'] as const) {
        const size = canvasSize(model, resolution);
        if (model.sizes === 'flexible') expect(onFlexibleGrid(size), model.id).toBe(true);
        else expect(standardSizes, model.id).toContain(sizeParameter(size));
      }
    }
  });

  it('gives the default model a 4:5 canvas of 1024×1280, and 1664×2080 (long edge ≥ 2048) at high resolution', () => {
    const model = openAiImageModel(DEFAULT_OPENAI_IMAGE_MODEL);
    expect(canvasSize(model, 'standard')).toEqual({ width: 1024, height: 1280 });
    const high = canvasSize(model, 'high');
    expect(high).toEqual({ width: 1664, height: 2080 });
    expect(Math.max(high.width, high.height)).toBeGreaterThanOrEqual(2048);
    // Not "experimental": at most 2560×1440's pixels (danny-avila/LibreChat#13148).
    expect(high.width * high.height).toBeLessThanOrEqual(2560 * 1440);
    expect(megapixelFactor(canvasSize(model, 'standard'))).toBe(1.25);
  });

  it('offers high resolution only on models that can make it; the others keep their standard canvas', () => {
    const old = openAiImageModel('gpt-image-1.5');
    expect(takesHighResolution(old)).toBe(false);
    expect(canvasSize(old, 'high')).toEqual({ width: 1024, height: 1536 });
    expect(takesHighResolution(openAiImageModel('gpt-image-2'))).toBe(true);
    expect(takesHighResolution(undefined)).toBe(false);
    expect(canvasSize(undefined, 'high')).toEqual({ width: 1024, height: 1536 });
  });

  it('plans the edit with that size and PNG output', () => {
    expect(planEdit(DEFAULT_OPENAI_IMAGE_MODEL, 'high').params).toMatchObject({
      size: '1024x1280',
      output_format: 'png',
    });
    expect(planEdit(DEFAULT_OPENAI_IMAGE_MODEL, 'high', 'high').params.size).toBe('1664x2080');
    expect(planEdit('gpt-image-1.5', 'high', 'high').params.size).toBe('1024x1536');
    expect(planEdit('gpt-image-9', 'high').params.size).toBe('1024x1536');
  });
});

describe('cutting the square and the portrait from a canvas', () => {
  const canvas = { width: 1024, height: 1280 };

  it('puts the eyes at 40 % of the square and starts the portrait at the square’s top', () => {
    const face = { x: 512, y: 560 };
    expect(squareRect(canvas, face)).toEqual({ left: 0, top: 150, width: 1024, height: 1024 });
    // The 4:5 portrait of a 4:5 canvas is the whole canvas.
    expect(portraitRect(canvas, face)).toEqual({ left: 0, top: 0, width: 1024, height: 1280 });
  });

  it('never reaches past the canvas: a face high up or low down moves the square to the edge', () => {
    expect(squareRect(canvas, { x: 512, y: 100 }).top).toBe(0);
    expect(squareRect(canvas, { x: 512, y: 1250 }).top).toBe(256);
  });

  it('cuts the 4:5 portrait around the face on a taller canvas (1024×1536 of the standard-size models)', () => {
    const tall = { width: 1024, height: 1536 };
    const face = { x: 512, y: 700 };
    const square = squareRect(tall, face);
    expect(square).toEqual({ left: 0, top: 290, width: 1024, height: 1024 });
    expect(portraitRect(tall, face)).toEqual({ left: 0, top: 256, width: 1024, height: 1280 });
    const portrait = portraitRect(tall, { x: 512, y: 500 });
    expect(portrait.top).toBe(90);
    expect(contains(portrait, squareRect(tall, { x: 512, y: 500 }))).toBe(true);
  });

  it('centres both on the face on a landscape or square canvas, never larger than the canvas', () => {
    const wide = { width: 1536, height: 1024 };
    expect(squareRect(wide, { x: 1200, y: 400 })).toEqual({ left: 512, top: 0, width: 1024, height: 1024 });
    const portrait = portraitRect(wide, { x: 300, y: 400 });
    expect(portrait).toEqual({ left: 0, top: 0, width: 819, height: 1024 });
  });

  it('plans the files: the square at 1024², the portrait and the original at their own pixels', () => {
    const plan = planVariants({ width: 1664, height: 2080 }, { x: 830, y: 900 });
    expect(plan.square.rect.width).toBe(1664);
    expect(plan.square.size).toEqual({ width: 1024, height: 1024 });
    expect(plan.portrait.size).toEqual({ width: 1664, height: 2080 });
    expect(plan.original.size).toEqual({ width: 1664, height: 2080 });
    // Without a face: centred, eyes assumed at 40 % of the square.
    expect(planVariants(canvas, undefined).square.rect).toEqual({
      left: 0,
      top: 0,
      width: 1024,
      height: 1024,
    });
  });

  it('never upscales the portrait or the original (only a canvas under 1024 px would be)', () => {
    for (const size of [
      { width: 1024, height: 1280 },
      { width: 1024, height: 1536 },
      { width: 1664, height: 2080 },
      { width: 1024, height: 1024 },
    ]) {
      const plan = planVariants(size, { x: size.width / 2, y: size.height / 3 });
      for (const cut of Object.values(plan)) {
        expect(cut.size.width).toBeLessThanOrEqual(cut.rect.width);
        expect(cut.size.height).toBeLessThanOrEqual(cut.rect.height);
        expect(cut.rect.left + cut.rect.width).toBeLessThanOrEqual(size.width);
        expect(cut.rect.top + cut.rect.height).toBeLessThanOrEqual(size.height);
      }
      expect(plan.portrait.size.width / plan.portrait.size.height).toBeCloseTo(0.8, 2);
    }
  });
});

describe('names and keys', () => {
  const headshot = { style: 'business-casual', background: 'office', slot: 2 };

  it('names each download by what it is', () => {
    expect(variantFileName(headshot, 'square')).toBe('headshot-business-casual-office-3-square.jpg');
    expect(variantFileName(headshot, 'portrait')).toBe('headshot-business-casual-office-3-portrait.jpg');
    expect(variantFileName(headshot, 'original')).toBe('headshot-business-casual-office-3-original.png');
  });

  it('keeps every file under the generation’s folder of the owner’s prefix; the square keeps its old key', () => {
    const sub = 'a1b2';
    const generation = '01JD5Y3B9Q2G6S4X7W8V0T1R2P';
    expect(headshotVariantKey(sub, generation, 4, 'square')).toBe(`results/${sub}/${generation}/4.jpg`);
    expect(headshotVariantKey(sub, generation, 4, 'portrait')).toBe(
      `results/${sub}/${generation}/portrait/4.jpg`,
    );
    expect(headshotVariantKey(sub, generation, 4, 'original')).toBe(
      `results/${sub}/${generation}/original/4.png`,
    );
  });
});
