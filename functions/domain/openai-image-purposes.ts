import type { EditRequest } from './edits';
import type { Resolution, Size } from './headshot-variants';
import type { ImageComplexity, ImageQuality, OpenAiImageModel } from './openai-image-models';

/**
 * The OpenAI parameters per use of the image model (issue 36): a first generation, an edit of a finished headshot,
 * its upscale. Chosen from prices and latencies with sources in docs/decisions/025-openai-parameters.md; the table
 * is docs/openai-image-models.md, "Parameters per use". Pure: the adapter (adapters/image-providers/openai-params.ts)
 * turns a plan into the request, sending each model only what the model table says it takes.
 */

/** What a provider call is for. */
export type ImagePurpose = 'generation' | 'edit' | 'upscale';

/** The partial images asked on a streamed call: 2 of OpenAI's 0-3 (decision 025: +200 output tokens, $0.006). */
export const PARTIAL_IMAGES = 2;

/** What one use asks of the model, before the model table trims it to what the model takes. */
export interface PurposeParameters {
  /** `configured`: OPENAI_IMAGE_QUALITY (default `high`, decision 001); otherwise this tier. */
  quality: ImageQuality | 'configured';
  /** The canvas: the caller's resolution, this one, or the model's largest 4:5 size ({@link largestPortrait}). */
  resolution: 'requested' | 'largest' | Resolution;
  /** `complexity` on the models that take it; `undefined`: omitted (the model's default, `high`). */
  complexity: ImageComplexity | undefined;
  /** Whether the call may stream partial images (only when the caller takes them). */
  streams: boolean;
}

/**
 * The table (decision 025):
 * - a first generation keeps the configured quality, the requested canvas and the model's own planning (`high`):
 *   it composes a new portrait from reference photos, the case the planning is for; it does not stream (six slots,
 *   and the grid shows finished, likeness-checked headshots only);
 * - an edit asks `high` (Sunburst "keeps people and details consistent across edits at medium and high"; an edit must
 *   not look worse than its source) at the standard canvas, with `low` planning, OpenAI's tier for "focused edits,
 *   simple compositions" (a reframe, which changes the composition, keeps `medium`), and streams;
 * - an upscale asks `high` at the model's largest 4:5 size ({@link largestPortrait}), `low` planning (nothing is
 *   composed), and streams.
 */
export function purposeParameters(purpose: ImagePurpose, request?: EditRequest): PurposeParameters {
  if (purpose === 'generation') {
    return { quality: 'configured', resolution: 'requested', complexity: undefined, streams: false };
  }
  if (purpose === 'upscale')
    return { quality: 'high', resolution: 'largest', complexity: 'low', streams: true };
  const complexity = request?.kind === 'reframe' ? 'medium' : 'low';
  return { quality: 'high', resolution: 'standard', complexity, streams: true };
}

/**
 * The largest 4:5 size a model makes (an upscale's canvas): on the flexible grid (sides multiples of 16, at most
 * 8,294,400 pixels, long edge ≤ 3840: docs/openai-image-models.md) 4:5 sides are multiples of 64×80, and 2560×3200
 * (8,192,000 pixels) is the largest; OpenAI calls sizes over 2560×1440's pixels "experimental" (the API reference's
 * `size`), which decision 025 accepts for an upscale. A standard model's largest portrait is 1024×1536 (2:3, the only
 * portrait it takes). `undefined` for a model the table does not know (it gets the standard canvas).
 */
export function largestPortrait(model: OpenAiImageModel | undefined): Size | undefined {
  if (!model) return undefined;
  return model.sizes === 'flexible' ? { width: 2560, height: 3200 } : { width: 1024, height: 1536 };
}

/**
 * The `background` to send: `transparent` for a transparent-background edit on a model that supports it (PNG
 * output); `opaque` for every other edit or upscale (a plain backdrop the product cuts the person out of when the model
 * cannot make transparency itself: decision 025), so `auto` never picks a background by the prompt's reading
 * (docs.apiyi.com: "`auto` … follows the prompt"); `undefined` for a first generation (unchanged: the model's own).
 */
export function backgroundParameter(
  model: OpenAiImageModel | undefined,
  purpose: ImagePurpose,
  request?: EditRequest,
): 'transparent' | 'opaque' | undefined {
  if (purpose === 'generation' || !model) return undefined;
  return wantsTransparency(request) && model.transparentBackground === 'supported' ? 'transparent' : 'opaque';
}

/** Whether an edit asks for no background at all (a PNG with an alpha channel). */
export function wantsTransparency(request: EditRequest | undefined): boolean {
  return request?.kind === 'background' && request.background.type === 'transparent';
}

/**
 * Whether the product must cut the person out itself (the model was asked an opaque plain backdrop for a transparent
 * edit): true for a transparent edit on a model whose transparency is a preview or refused, or unknown.
 */
export function needsLocalCutout(
  model: OpenAiImageModel | undefined,
  request: EditRequest | undefined,
): boolean {
  return wantsTransparency(request) && model?.transparentBackground !== 'supported';
}

/**
 * Estimated USD the partial images add to one call: each is "an additional 100 image output tokens" (the image
 * generation guide) at the model's image output rate ($30 per million for the GPT Image 2 family: $0.003 each).
 */
export function partialImagesUsd(partialImages: number, usdPerMillionOutputTokens = 30): number {
  return (partialImages * 100 * usdPerMillionOutputTokens) / 1_000_000;
}
