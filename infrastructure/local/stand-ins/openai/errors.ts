/*
 * OpenAI's error answers, as its API sends them: `{ error: { message, type, param, code } }` with the status OpenAI
 * uses. Each builder names where the body comes from. Shared by the strict edits validator (validate.ts) and by tests
 * that script an answer (`openAiErrors`).
 */

/** One refusal: the HTTP status, OpenAI's JSON body and any headers. */
export interface OpenAiErrorAnswer {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
  headers?: Record<string, string>;
}

function refusal(
  status: number,
  message: string,
  type: string,
  param: string | null,
  code: string | null,
): OpenAiErrorAnswer {
  return { status, body: { error: { message, type, param, code } } };
}

/** `'a', 'b', and 'c'`, OpenAI's way of listing supported values. */
function listed(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** Builders of the refusals the edits endpoint answers. */
export const refusals = {
  /**
   * No `Authorization` header: OpenAI's 401 "You didn't provide an API key…" (yihong0618/bilingual_book_maker#137
   * quotes it; the key page is platform.openai.com/account/api-keys today), `param` and `code` null.
   */
  missingKey: () =>
    refusal(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      'invalid_request_error',
      null,
      null,
    ),
  /**
   * A key OpenAI does not know: 401 `invalid_api_key`, the key masked as OpenAI masks it (its first 8 and last 4
   * characters), body verbatim from chatanywhere/GPT_API_free#62 and continuedev/continue#9358.
   */
  invalidKey: (key: string) =>
    refusal(
      401,
      `Incorrect API key provided: ${key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_request_error',
      null,
      'invalid_api_key',
    ),
  /** A form field the endpoint does not define: "400 Unknown parameter: 'input_fidelity'" (lobehub/lobehub#9920). */
  unknownParameter: (name: string) =>
    refusal(400, `Unknown parameter: '${name}'.`, 'invalid_request_error', name, 'unknown_parameter'),
  /** A required field left out (OpenAI's `missing_required_parameter`). */
  missing: (name: string) =>
    refusal(
      400,
      `Missing required parameter: '${name}'.`,
      'invalid_request_error',
      name,
      'missing_required_parameter',
    ),
  /**
   * A model the API does not know: "400 The model 'gpt-image-2' does not exist." (router-for-me/CLIProxyAPI#3687,
   * relayed from OpenAI while the model was not yet enabled). The message is OpenAI's; `param`/`code` are our reading
   * of it (the thread shows only the message).
   */
  unknownModel: (model: string) =>
    refusal(400, `The model '${model}' does not exist.`, 'invalid_request_error', 'model', 'model_not_found'),
  /**
   * A model past its shutdown date ("Shutdown. The model no longer accepts requests",
   * https://developers.openai.com/api/docs/deprecations): the 404 `model_not_found` "has been deprecated, learn more
   * here" body OpenAI has answered for every shut-down model since text-davinci-003 (2024-01-04).
   */
  shutDown: (model: string) =>
    refusal(
      404,
      `The model \`${model}\` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations`,
      'invalid_request_error',
      null,
      'model_not_found',
    ),
  /** `input_fidelity` on a model that refuses it: the body of vulca-org/vulca-visual-control-sdk#12, verbatim. */
  inputFidelityUnsupported: (model: string) =>
    refusal(
      400,
      `The model '${model}' does not support the 'input_fidelity' parameter.`,
      'image_generation_user_error',
      'input_fidelity',
      'invalid_input_fidelity_model',
    ),
  /** An enum value outside the model's (OpenAI's `invalid_value` wording, e.g. scenario-labs/skills#111 for quality). */
  invalidValue: (param: string, value: string, supported: readonly string[]) =>
    refusal(
      400,
      `Invalid value: '${value}'. Supported values are: ${listed(supported)}.`,
      'invalid_request_error',
      param,
      'invalid_value',
    ),
  /** An integer outside its range (OpenAI's `integer_above_max_value` / `integer_below_min_value`). */
  integerOutOfRange: (param: string, value: number, min: number, max: number) =>
    value > max
      ? refusal(
          400,
          `Invalid '${param}': integer above maximum value. Expected a value <= ${max}, but got ${value} instead.`,
          'invalid_request_error',
          param,
          'integer_above_max_value',
        )
      : refusal(
          400,
          `Invalid '${param}': integer below minimum value. Expected a value >= ${min}, but got ${value} instead.`,
          'invalid_request_error',
          param,
          'integer_below_min_value',
        ),
  /** More than 16 images (the API reference's limit, OpenAI's `array_above_max_length` wording). */
  tooManyImages: (count: number, max: number) =>
    refusal(
      400,
      `Invalid 'image': array too long. Expected an array with maximum length ${max}, but got an array with length ${count} instead.`,
      'invalid_request_error',
      'image',
      'array_above_max_length',
    ),
  /**
   * An image that is not PNG, JPEG or WebP: "Invalid file 'image': unsupported mimetype ('application/octet-stream').
   * Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'." (Comfy-Org/ComfyUI#9329,
   * anasfik/openai#216).
   */
  unsupportedImage: (mimetype: string) =>
    refusal(
      400,
      `Invalid file 'image': unsupported mimetype ('${mimetype}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
      'invalid_request_error',
      'image',
      'unsupported_file_mimetype',
    ),
  /** Declared PNG/JPEG/WebP but the bytes are not: "Invalid image file or mode for image 1" (QuantumNous/new-api#1159). */
  invalidImageFile: (position: number) =>
    refusal(
      400,
      `Invalid image file or mode for image ${position}, please check your image file.`,
      'invalid_request_error',
      'image',
      'invalid_image_file',
    ),
  /** A size outside the flexible grid (the rules of the API reference's `size`, `sdk` in the model table). */
  invalidSize: (size: string) =>
    refusal(
      400,
      `Invalid size '${size}'. Width and height must both be divisible by 16, the aspect ratio between 1:3 and 3:1, the longest edge at most 3840 and the total pixels between 655360 and 8294400.`,
      'invalid_request_error',
      'size',
      'invalid_value',
    ),
  /**
   * A string field over its maximum length: OpenAI's 400 `string_above_max_length`, naming the field, as it answers it
   * for any request field ("Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but
   * got a string with length 116 instead.", type `invalid_request_error`, code `string_above_max_length`:
   * AnswerDotAI/fastllm#45; the same shape for `tools[11].function.name`, home-assistant/core#121325).
   */
  stringTooLong: (param: string, length: number, max: number) =>
    refusal(
      400,
      `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${length} instead.`,
      'invalid_request_error',
      param,
      'string_above_max_length',
    ),
  /**
   * A parameter the model does not take (`complexity` before the 2.6 models): OpenAI's 400 `unsupported_parameter`
   * shape, "Unsupported parameter: 'max_tokens' is not supported with this model." (`invalid_request_error`, `param`
   * named: farion1231/cc-switch#1448). Inferred for the images endpoint: what it answers `complexity` on a model
   * without it is not among our sources; the adapter never sends it there.
   */
  unsupportedParameter: (param: string) =>
    refusal(
      400,
      `Unsupported parameter: '${param}' is not supported with this model.`,
      'invalid_request_error',
      param,
      'unsupported_parameter',
    ),
  /**
   * `background: transparent` on a model that does not make it: "Transparent background is not supported for this
   * model." with `invalid_value` and `image_generation_user_error` (gaoren002/GPT2Image-Pro#2, gpt-image-2 before its
   * preview; Wei-Shaw/sub2api#7150). `param: background` is our reading (the threads show message, code and type).
   */
  transparentUnsupported: () =>
    refusal(
      400,
      'Transparent background is not supported for this model.',
      'image_generation_user_error',
      'background',
      'invalid_value',
    ),
  /**
   * `background: transparent` with JPEG output, on every model: "Transparent background is not supported for JPEG
   * output format" (measured on both 2.6 models, edits and generations: docs.apiyi.com/en/faq/
   * gpt-image-output-format-background; the API reference: "When using `transparent`, set the output format to `png`
   * or `webp`"). Type, code and param as the model refusal above (inferred).
   */
  transparentWithJpeg: () =>
    refusal(
      400,
      'Transparent background is not supported for JPEG output format',
      'image_generation_user_error',
      'background',
      'invalid_value',
    ),
  /** `output_compression` with PNG output ("only supported … with the `webp` or `jpeg` output formats", API reference). */
  compressionWithoutLossyFormat: () =>
    refusal(
      400,
      "Invalid 'output_compression': only supported with the 'jpeg' and 'webp' output formats.",
      'invalid_request_error',
      'output_compression',
      'invalid_value',
    ),
} as const;

/** OpenAI's error bodies, as its API sends them, for tests that script an answer. */
export const openAiErrors = {
  rateLimited: {
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached for images',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
    headers: { 'retry-after': '1', 'retry-after-ms': '300', 'x-ratelimit-remaining-requests': '0' },
  },
  insufficientQuota: {
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    },
  },
  moderation: {
    status: 400,
    body: {
      error: {
        message: 'Your request was rejected as a result of our safety system.',
        type: 'image_generation_user_error',
        param: null,
        code: 'moderation_blocked',
      },
    },
  },
  serverError: {
    status: 500,
    body: {
      error: {
        message: 'The server had an error processing your request.',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
} as const;
