import { HEADSHOT_SIDE } from './headshot-images';
import { EYE_LINE } from './framing';
import type { OpenAiImageModel } from './openai-image-models';

/**
 * The files one headshot is delivered as (issue 28; docs/product-spec.md §2 "Downloads"), and the geometry that cuts
 * them from the provider's image. Pure: the workflow's FinishHeadshot, the offline provider and the tests share it.
 *
 * Each slot asks the provider for a portrait **canvas** (taller than wide), and from its pixels, never upscaled:
 * - `square`: the spec's 1024×1024 headshot (the gallery, LinkedIn), face-centred with the eyes at
 *   {@link EYE_LINE} of its side, cut at the canvas's full width and scaled down to {@link HEADSHOT_SIDE} when wider;
 * - `portrait`: the largest 4:5 rectangle of the canvas (résumé, company page): the square extended downwards by a
 *   quarter of its side, so it shows the same face at the same size and more of the shoulders;
 * - `original`: the whole canvas, losslessly (PNG), at the resolution the provider made it.
 */

/** The downloadable files of a headshot, in the order the viewer offers them. */
export const HEADSHOT_VARIANTS = ['square', 'portrait', 'original'] as const;
export type HeadshotVariant = (typeof HEADSHOT_VARIANTS)[number];

/** `standard`: the default canvas; `high`: the high-resolution option (docs/decisions/009-high-resolution.md). */
export const RESOLUTIONS = ['standard', 'high'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** The portrait's aspect ratio, width : height (4:5, the résumé and LinkedIn-post portrait). */
export const PORTRAIT_ASPECT = { width: 4, height: 5 } as const;

/** A size in px. */
export interface Size {
  width: number;
  height: number;
}

/** A rectangle of the canvas, in px (integers, inside the canvas). */
export interface CropRect extends Size {
  left: number;
  top: number;
}

/** Where the face is on the canvas, in canvas px: the midpoint of the eyes. */
export interface FacePosition {
  x: number;
  y: number;
}

/**
 * The canvas sizes the provider is asked for (OpenAI's `size`, `WxH`):
 * - `flexible` models (the gpt-image-2 family) take any `WxH` with both sides multiples of 16, the long edge at most
 *   3840, the ratio within 1:3-3:1 and 655,360-8,294,400 pixels (docs/openai-image-models.md): 1024×1280 is the
 *   fewest pixels that hold a 1024 px square and a 1024 px wide 4:5 portrait (1.25 × a 1024² image's price), and
 *   1664×2080 the high-resolution option: the largest 4:5 size on the grid that is not "experimental" (OpenAI:
 *   "Resolutions above 2560x1440 are experimental", i.e. over 3,686,400 pixels; danny-avila/LibreChat#13148 quoting
 *   the API reference), its long edge over 2048 px (3.3 × the price). Both are 4:5, so the portrait is the whole
 *   canvas;
 * - `standard` models (gpt-image-1.x) take only 1024×1024, 1536×1024 and 1024×1536: 1024×1536 (1.5 × the price),
 *   and no high resolution;
 * - a model the table does not know gets 1024×1536, a size every GPT Image model takes.
 */
export const CANVAS_SIZES = {
  flexible: { standard: { width: 1024, height: 1280 }, high: { width: 1664, height: 2080 } },
  standard: { standard: { width: 1024, height: 1536 } },
} as const;

/** Whether a model can make the high-resolution canvas (only `flexible` sizes reach 2048 px and more). */
export function takesHighResolution(model: OpenAiImageModel | undefined): boolean {
  return model?.sizes === 'flexible';
}

/**
 * The canvas to ask `model` for at `resolution`. `high` on a model that cannot make it falls back to the standard
 * canvas (the caller decides whether that may happen: the price of the option is only charged where it is taken).
 */
export function canvasSize(model: OpenAiImageModel | undefined, resolution: Resolution): Size {
  if (model?.sizes === 'flexible') return CANVAS_SIZES.flexible[resolution];
  return CANVAS_SIZES.standard.standard;
}

/** `size` as OpenAI spells it: `1024x1280`. */
export function sizeParameter(size: Size): `${number}x${number}` {
  return `${size.width}x${size.height}`;
}

/** How many 1024² images' worth of pixels a size is (OpenAI bills output tokens by pixels). */
export function megapixelFactor(size: Size): number {
  return (size.width * size.height) / (HEADSHOT_SIDE * HEADSHOT_SIDE);
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/**
 * The square's rectangle on a `canvas`: side = the canvas's short side, placed so the eyes sit at {@link EYE_LINE}
 * of its height and the face is centred horizontally, then moved back inside the canvas (never past an edge: no
 * invented pixels). Without a face (none found), the square is centred horizontally and placed at the top third.
 */
export function squareRect(canvas: Size, face: FacePosition | undefined): CropRect {
  const side = Math.min(canvas.width, canvas.height);
  const centreX = face?.x ?? canvas.width / 2;
  const eyeY = face?.y ?? side * EYE_LINE;
  return {
    left: Math.round(clamp(centreX - side / 2, 0, canvas.width - side)),
    top: Math.round(clamp(eyeY - side * EYE_LINE, 0, canvas.height - side)),
    width: side,
    height: side,
  };
}

/**
 * The 4:5 portrait's rectangle: the largest 4:5 rectangle in the canvas, as wide as the square when the canvas is
 * tall enough, its top at the square's top (the same face at the same size, a quarter more below), moved up when it
 * would pass the canvas's bottom. On a canvas too short for that (a square one), the tallest 4:5 rectangle, centred
 * on the face.
 */
export function portraitRect(canvas: Size, face: FacePosition | undefined): CropRect {
  const square = squareRect(canvas, face);
  const ratio = PORTRAIT_ASPECT.height / PORTRAIT_ASPECT.width;
  let width = square.width;
  let height = Math.round(width * ratio);
  if (height > canvas.height) {
    height = canvas.height;
    width = Math.round(height / ratio);
  }
  const centreX = face?.x ?? canvas.width / 2;
  return {
    left: Math.round(clamp(centreX - width / 2, 0, canvas.width - width)),
    top: Math.round(clamp(square.top, 0, canvas.height - height)),
    width,
    height,
  };
}

/** One file to cut: the canvas rectangle and the size it is saved at. */
export interface VariantCut {
  rect: CropRect;
  /** Output size, px: the rectangle's own size, or smaller (never larger, except a square from a canvas < 1024). */
  size: Size;
}

/** The cuts of {@link planVariants}, by variant. */
export type VariantPlan = Record<HeadshotVariant, VariantCut>;

/**
 * What each variant is cut from a `canvas` with the face at `face`:
 * - `square` at {@link HEADSHOT_SIDE}² (scaled down from a wider canvas; up only from a canvas under 1024 px, which
 *   no provider answers when asked for a portrait canvas, so the gallery always has its 1024 px square);
 * - `portrait` at its rectangle's own size (never scaled);
 * - `original`: the whole canvas.
 */
export function planVariants(canvas: Size, face: FacePosition | undefined): VariantPlan {
  const whole = { left: 0, top: 0, width: canvas.width, height: canvas.height };
  const portrait = portraitRect(canvas, face);
  return {
    square: { rect: squareRect(canvas, face), size: { width: HEADSHOT_SIDE, height: HEADSHOT_SIDE } },
    portrait: { rect: portrait, size: { width: portrait.width, height: portrait.height } },
    original: { rect: whole, size: { width: canvas.width, height: canvas.height } },
  };
}

/** Whether `inner` lies within `outer` (a face box within the square: its likeness was measured on the square). */
export function contains(outer: CropRect, inner: CropRect): boolean {
  return (
    inner.left >= outer.left &&
    inner.top >= outer.top &&
    inner.left + inner.width <= outer.left + outer.width &&
    inner.top + inner.height <= outer.top + outer.height
  );
}

/** The file name's suffix and extension per variant. */
const FILE_ENDINGS: Record<HeadshotVariant, string> = {
  square: 'square.jpg',
  portrait: 'portrait.jpg',
  original: 'original.png',
};

/** The content type each variant is stored and served with. */
export const VARIANT_CONTENT_TYPES: Record<HeadshotVariant, 'image/jpeg' | 'image/png'> = {
  square: 'image/jpeg',
  portrait: 'image/jpeg',
  original: 'image/png',
};

/**
 * The name a variant is downloaded under: `headshot-<style>-<background>-<n>-<variant>.<ext>`, `n` the headshot's
 * 1-based place in its generation (slot + 1), e.g. `headshot-business-casual-office-3-square.jpg`
 * (docs/product-spec.md §2 "Downloads").
 */
export function variantFileName(
  headshot: { style: string; background: string; slot: number },
  variant: HeadshotVariant,
): string {
  return `headshot-${headshot.style}-${headshot.background}-${headshot.slot + 1}-${FILE_ENDINGS[variant]}`;
}
