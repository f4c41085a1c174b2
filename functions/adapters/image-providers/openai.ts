import OpenAI, { toFile, type ClientOptions } from 'openai';
import {
  ProviderInvalidOutputError,
  ProviderMisconfiguredError,
  ProviderTimeoutError,
  type HeadshotRequest,
  type ImageProvider,
} from './types';
import { countMetric } from '../../common/metrics';
import { logger } from '../../common/logger';
import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  DEFAULT_OPENAI_IMAGE_QUALITY,
  type ImageQuality,
} from '../../domain/openai-image-models';
import { providerTimeouts } from '../../domain/provider-timeouts';
import { mapOpenAiError } from './openai-errors';
import { planCall, planEdit } from './openai-params';
import { readEditStream } from './openai-stream';
import { cutOutPerson } from './openai-cutout';
import { needsLocalCutout } from '../../domain/openai-image-purposes';

export { mapOpenAiError } from './openai-errors';
export { planCall, planEdit } from './openai-params';

/** The content type of an input image by its signature (a stored headshot is PNG or JPEG; references are JPEG). */
function imageType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'image/png';
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return 'image/jpeg';
}

/**
 * The call's input images: an edit or an upscale sends the headshot itself as its one image (issue 36: "one provider
 * call of the headshot itself"); a first generation sends the reference photos, best first.
 */
function inputImages(request: HeadshotRequest) {
  if (request.edit) {
    const type = imageType(request.edit.image);
    return Promise.all([toFile(request.edit.image, `headshot.${type.slice(6)}`, { type })]);
  }
  return Promise.all(
    request.references.map((bytes, i) => toFile(bytes, `reference-${i + 1}.jpg`, { type: 'image/jpeg' })),
  );
}

/**
 * The `openai` provider: the official SDK's `images.edit` (POST /v1/images/edits, multipart, the references as
 * repeated `image[]` parts) with one image per call, sending only the parameters the configured model takes
 * (functions/domain/openai-image-models.ts, docs/architecture.md §4), and the caller's `safety_identifier` (the SDK
 * 7.57.0 `ImageEditParams.safety_identifier`: "a stable identifier for an end user … used for safety monitoring and
 * abuse detection"; docs/openai-image-models.md).
 */

/**
 * The client timeout of the default model and quality, in ms (functions/domain/provider-timeouts.ts): the documented
 * worst case × 1.5, under the slot function's Lambda timeout, so a slow call fails as a named, retryable
 * `ProviderTimeoutError` instead of a killed sandbox.
 */
export const OPENAI_TIMEOUT_MS =
  providerTimeouts(DEFAULT_OPENAI_IMAGE_MODEL, DEFAULT_OPENAI_IMAGE_QUALITY).clientSeconds * 1000;

/** Options of {@link createOpenAiProvider}. */
export interface OpenAiProviderOptions {
  apiKey: string;
  /** Another server speaking the Images API (tests); default OpenAI's. */
  baseURL?: string;
  /** The image model id, e.g. `gpt-image-2.6-sunburst` (config OPENAI_IMAGE_MODEL). */
  model: string;
  /** The edit quality (config OPENAI_IMAGE_QUALITY); default `high`. */
  quality?: ImageQuality;
  /** Client timeout in ms; default the model and quality's (config OPENAI_TIMEOUT_SECONDS overrides it). */
  timeoutMs?: number;
  /** Extra SDK options (tests: a custom `fetch`). */
  clientOptions?: Partial<ClientOptions>;
}

/**
 * Whether the model takes `input_fidelity: high` (today only gpt-image-1.5 and its snapshot; the gpt-image-2 family
 * answers 400 `invalid_input_fidelity_model`, gpt-image-1-mini takes only `low`). Unknown models: no.
 */
export function supportsInputFidelity(model: string): boolean {
  return planEdit(model, 'high').params.input_fidelity === 'high';
}

/**
 * A streamed edit under the same client timeout as a plain one: the SDK's `timeout` ends when the answer's headers
 * arrive, and a stream's headers come at once, so the whole stream is bounded here (an abort past `timeoutMs` is the
 * named, retryable {@link ProviderTimeoutError}, never a Lambda killed mid-stream).
 */
async function streamedEdit(
  client: OpenAI,
  body: OpenAI.Images.ImageEditParamsStreaming,
  onPartialImage: (image: Buffer, index: number) => Promise<void>,
  timeoutMs: number,
): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const stream = await client.images.edit(body, { signal: controller.signal });
    return await readEditStream(stream, onPartialImage);
  } catch (error) {
    if (controller.signal.aborted) throw new ProviderTimeoutError('OpenAI image stream timed out');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Counts and logs a misconfiguration with what OpenAI named, so the alarm's first look says what to fix. */
function reportMisconfiguration(error: ProviderMisconfiguredError, request: HeadshotRequest): void {
  const { model, param, code, status } = error.details;
  countMetric('ProviderMisconfigured', 1, { model, param, code });
  logger.error('Image provider misconfigured: the slot fails and is refunded', {
    model,
    param,
    code,
    status,
    problem: error.message,
    generationId: request.generationId,
    slot: request.slot,
  });
}

/**
 * Creates the provider. The SDK's own retries are off (`maxRetries: 0`): Step Functions owns retries, with backoff
 * and jitter per slot, so a retry is visible in the execution history and bounded by the workflow's timeouts.
 * A model the table does not know is logged once (a warning) and sent only what every GPT Image model takes.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ImageProvider {
  const quality = options.quality ?? DEFAULT_OPENAI_IMAGE_QUALITY;
  const plan = planEdit(options.model, quality, 'standard');
  const timeoutMs = options.timeoutMs ?? providerTimeouts(options.model, quality).clientSeconds * 1000;
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: timeoutMs,
    ...options.clientOptions,
  });
  if (!plan.model) {
    logger.warn(
      'OPENAI_IMAGE_MODEL is not in the model table: sending only what every GPT Image model takes',
      {
        model: options.model,
        sent: Object.keys(plan.params),
      },
    );
  }
  return {
    name: 'openai',
    async generate(request: HeadshotRequest): Promise<Buffer> {
      if (plan.problems.length > 0) {
        const error = new ProviderMisconfiguredError(plan.problems.join('; '), {
          model: options.model,
          param: 'quality',
          code: 'invalid_value',
          status: null,
        });
        reportMisconfiguration(error, request);
        throw error;
      }
      const images = await inputImages(request);
      const { params } = planCall(options.model, quality, {
        purpose: request.purpose ?? (request.edit ? 'edit' : 'generation'),
        resolution: request.resolution ?? 'standard',
        request: request.edit?.request,
        takesPartialImages: request.onPartialImage !== undefined,
      });
      const body = {
        ...params,
        image: images,
        prompt: request.prompt,
        ...(request.safetyIdentifier ? { safety_identifier: request.safetyIdentifier } : {}),
      };
      let image: Buffer;
      try {
        if (params.stream && request.onPartialImage) {
          image = await streamedEdit(client, { ...body, stream: true }, request.onPartialImage, timeoutMs);
        } else {
          const response = await client.images.edit({ ...body, stream: undefined });
          const b64 = response.data?.[0]?.b64_json;
          if (!b64) throw new ProviderInvalidOutputError('OpenAI answered without b64_json image data');
          image = Buffer.from(b64, 'base64');
        }
      } catch (error) {
        if (error instanceof ProviderInvalidOutputError || error instanceof ProviderTimeoutError) throw error;
        const mapped = mapOpenAiError(error, options.model);
        if (mapped instanceof ProviderMisconfiguredError) reportMisconfiguration(mapped, request);
        throw mapped;
      }
      // A transparent edit the model was asked on an opaque backdrop: the person is cut out here (decision 025).
      if (!needsLocalCutout(plan.model, request.edit?.request)) return image;
      return cutOutPerson(image).catch((error: unknown) => {
        throw new ProviderInvalidOutputError(`The person could not be cut out: ${(error as Error).message}`);
      });
    },
  };
}
