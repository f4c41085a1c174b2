import { canvasSize, sizeParameter, type Resolution } from '../../domain/headshot-variants';
import type { EditRequest } from '../../domain/edits';
import {
  openAiImageModel,
  UNIVERSAL_QUALITIES,
  type ImageComplexity,
  type ImageQuality,
  type OpenAiImageModel,
} from '../../domain/openai-image-models';
import {
  backgroundParameter,
  largestPortrait,
  PARTIAL_IMAGES,
  purposeParameters,
  type ImagePurpose,
} from '../../domain/openai-image-purposes';

/**
 * The parameters of one `POST /v1/images/edits` besides the images and the prompt, chosen from the model table
 * (functions/domain/openai-image-models.ts) so that the configured model is never sent a parameter it refuses.
 */
export interface EditParameters {
  model: string;
  /** The portrait canvas, `WxH` (domain/headshot-variants.ts `canvasSize`). */
  size: `${number}x${number}`;
  quality?: ImageQuality;
  n: 1;
  output_format?: 'png';
  input_fidelity?: 'high';
  /** Edits and upscales only (domain/openai-image-purposes.ts `backgroundParameter`). */
  background?: 'transparent' | 'opaque';
  /** The 2.6 models only (`takesComplexity`). */
  complexity?: ImageComplexity;
  /** With `onPartialImage` on a streamed use: OpenAI answers server-sent events. */
  stream?: true;
  partial_images?: number;
}

/** What {@link planEdit} decided: the parameters, and whether the model is in the table. */
export interface EditPlan {
  params: EditParameters;
  /** The table entry; `undefined` for a model the table does not know. */
  model: OpenAiImageModel | undefined;
  /** Why the configuration cannot be sent as asked (a quality the model refuses); empty when it can. */
  problems: string[];
}

/**
 * Plans the edit parameters for `modelId` at `quality` and `resolution`:
 * - a model in the table gets the portrait canvas of domain/headshot-variants.ts as `size` (1024x1280 on the
 *   gpt-image-2 family, 1664x2080 there for the high-resolution option; 1024x1536 on the standard-size models),
 *   `n: 1`, the quality, PNG output (the original is delivered losslessly: OpenAI's default, asked for explicitly),
 *   and `input_fidelity: high` only when it takes `high` (today only gpt-image-1.5 and its snapshot; the
 *   gpt-image-2 family answers 400 `invalid_input_fidelity_model`, pydantic/pydantic-ai#5413);
 * - a model the table does not know gets only what every GPT Image model takes: `size: 1024x1536`, `n` and a
 *   standard quality (PNG output by default), so a new model works before the table learns it.
 * A quality the model does not take is a problem (the caller refuses to call: OpenAI would answer 400).
 */
export function planEdit(
  modelId: string,
  quality: ImageQuality,
  resolution: Resolution = 'standard',
): EditPlan {
  const model = openAiImageModel(modelId);
  const problems: string[] = [];
  const size = sizeParameter(canvasSize(model, resolution));
  if (!model) {
    return {
      model,
      problems,
      params: {
        model: modelId,
        size,
        n: 1,
        ...(UNIVERSAL_QUALITIES.includes(quality) ? { quality } : {}),
      },
    };
  }
  if (!model.qualities.includes(quality)) {
    problems.push(
      `OPENAI_IMAGE_QUALITY "${quality}" is not taken by ${model.id} (it takes ${model.qualities.join(', ')})`,
    );
  }
  return {
    model,
    problems,
    params: {
      model: model.id,
      size,
      quality,
      n: 1,
      ...(model.outputFormats.includes('png') ? { output_format: 'png' as const } : {}),
      ...(model.inputFidelity.includes('high') ? { input_fidelity: 'high' as const } : {}),
    },
  };
}

/** One call's use: what it is for, the canvas asked, the edit, whether the caller takes partial images. */
export interface CallUse {
  purpose: ImagePurpose;
  resolution: Resolution;
  request?: EditRequest;
  /** The caller passed `onPartialImage`. */
  takesPartialImages: boolean;
}

/**
 * Plans one call for its use (domain/openai-image-purposes.ts, docs/openai-image-models.md "Parameters per use"):
 * the quality (the configured one for a first generation, the use's tier otherwise), the canvas (an upscale's is the
 * model's largest 4:5 size), and on top of {@link planEdit}'s parameters the `background`, `complexity`
 * and `stream` + `partial_images` the model table says the model takes. A model the table does not know gets none of
 * them (only what every GPT Image model takes).
 */
export function planCall(modelId: string, configuredQuality: ImageQuality, use: CallUse): EditPlan {
  const wanted = purposeParameters(use.purpose, use.request);
  const quality = wanted.quality === 'configured' ? configuredQuality : wanted.quality;
  const resolution =
    wanted.resolution === 'requested'
      ? use.resolution
      : wanted.resolution === 'largest'
        ? 'high'
        : wanted.resolution;
  const plan = planEdit(modelId, quality, resolution);
  const model = plan.model;
  if (!model) return plan;
  const largest = wanted.resolution === 'largest' ? largestPortrait(model) : undefined;
  const background = backgroundParameter(model, use.purpose, use.request);
  const partialImages = Math.min(PARTIAL_IMAGES, model.maxPartialImages);
  return {
    ...plan,
    params: {
      ...plan.params,
      ...(largest ? { size: sizeParameter(largest) } : {}),
      ...(background ? { background } : {}),
      ...(model.takesComplexity && wanted.complexity ? { complexity: wanted.complexity } : {}),
      ...(wanted.streams && use.takesPartialImages && partialImages > 0
        ? { stream: true as const, partial_images: partialImages }
        : {}),
    },
  };
}
