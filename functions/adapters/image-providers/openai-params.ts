import {
  openAiImageModel,
  UNIVERSAL_QUALITIES,
  type ImageQuality,
  type OpenAiImageModel,
} from '../../domain/openai-image-models';

/**
 * The parameters of one `POST /v1/images/edits` besides the images and the prompt, chosen from the model table
 * (functions/domain/openai-image-models.ts) so that the configured model is never sent a parameter it refuses.
 */
export interface EditParameters {
  model: string;
  size: '1024x1024';
  quality?: ImageQuality;
  n: 1;
  output_format?: 'jpeg';
  output_compression?: number;
  input_fidelity?: 'high';
}

/** What {@link planEdit} decided: the parameters, and whether the model is in the table. */
export interface EditPlan {
  params: EditParameters;
  /** The table entry; `undefined` for a model the table does not know. */
  model: OpenAiImageModel | undefined;
  /** Why the configuration cannot be sent as asked (a quality the model refuses); empty when it can. */
  problems: string[];
}

/** JPEG at 90 %: the caller re-encodes to its own JPEG, and a 1024² JPEG is a tenth of the PNG (a faster answer). */
export const OUTPUT_COMPRESSION = 90;

/**
 * Plans the edit parameters for `modelId` at `quality`:
 * - a model in the table gets `size: 1024x1024`, `n: 1`, the quality, JPEG output at {@link OUTPUT_COMPRESSION} when it
 *   takes JPEG, and `input_fidelity: high` only when it takes `high` (today only gpt-image-1.5 and its snapshot;
 *   the gpt-image-2 family answers 400 `invalid_input_fidelity_model`, pydantic/pydantic-ai#5413);
 * - a model the table does not know gets only what every GPT Image model takes: size, `n` and a standard quality
 *   (PNG output by default), so a new model works before the table learns it.
 * A quality the model does not take is a problem (the caller refuses to call: OpenAI would answer 400).
 */
export function planEdit(modelId: string, quality: ImageQuality): EditPlan {
  const model = openAiImageModel(modelId);
  const problems: string[] = [];
  if (!model) {
    return {
      model,
      problems,
      params: {
        model: modelId,
        size: '1024x1024',
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
  const jpeg = model.outputFormats.includes('jpeg');
  return {
    model,
    problems,
    params: {
      model: model.id,
      size: '1024x1024',
      quality,
      n: 1,
      ...(jpeg ? { output_format: 'jpeg' as const, output_compression: OUTPUT_COMPRESSION } : {}),
      ...(model.inputFidelity.includes('high') ? { input_fidelity: 'high' as const } : {}),
    },
  };
}
