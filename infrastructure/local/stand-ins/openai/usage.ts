import type { EditCall } from './server';

/**
 * The pixels of the answer for a `size`: OpenAI's image is the size asked ("The size of the generated images", the
 * API reference's `size`: https://developers.openai.com/api/reference/resources/images/methods/edit; the answer's
 * own `size` field echoes it). `auto` is answered at 1024×1024 here (OpenAI picks one of its standard sizes).
 */
export function answerSize(size: string): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(size);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : { width: 1024, height: 1024 };
}

/**
 * The `usage` of an edit answer, in OpenAI's shape (the `openai` SDK 7.57.0 `ImagesResponse.Usage`: `input_tokens`,
 * `input_tokens_details { image_tokens, text_tokens }`, `output_tokens`, `total_tokens`). The counts are inferred, not
 * OpenAI's: about 4 characters a text token, 1,024 tokens an input image, and the output's pixels ÷ 1,024 tokens.
 */
export function editUsage(call: EditCall, partialImages = 0) {
  const { width, height } = answerSize(call.size);
  const text = Math.ceil(call.prompt.length / 4);
  const image = 1024 * call.images.length;
  // "each partial image will incur an additional 100 image output tokens" (the image generation guide).
  const output = Math.round((width * height) / 1024) + 100 * partialImages;
  return {
    input_tokens: text + image,
    input_tokens_details: { image_tokens: image, text_tokens: text },
    output_tokens: output,
    total_tokens: text + image + output,
  };
}
