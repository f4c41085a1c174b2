import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  toFile,
  type ClientOptions,
} from 'openai';
import {
  ProviderInvalidOutputError,
  ProviderRejectedError,
  ProviderThrottledError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  type HeadshotRequest,
  type ImageProvider,
} from './types';
import { retryAfterMs } from '../../domain/slot-outcomes';

/**
 * The `openai` provider: the official SDK's `images.edit` (POST /v1/images/edits, multipart, the references as
 * repeated `image[]` parts) with one image per call (docs/architecture.md §4).
 */

/**
 * How long one edit may take before the client gives up, in ms. Edits take 60-150 s (docs/architecture.md §4); 180 s leaves
 * headroom and stays under the slot function's 240 s Lambda timeout, so a slow call fails as a named, retryable
 * `ProviderTimeoutError` instead of a killed sandbox.
 */
export const OPENAI_TIMEOUT_MS = 180_000;

/** Options of {@link createOpenAiProvider}. */
export interface OpenAiProviderOptions {
  apiKey: string;
  /** Another server speaking the Images API (tests); default OpenAI's. */
  baseURL?: string;
  /** The image model id, e.g. `gpt-image-2.6-sunburst` (config OPENAI_IMAGE_MODEL). */
  model: string;
  /** Client timeout in ms; default {@link OPENAI_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Extra SDK options (tests: a custom `fetch`). */
  clientOptions?: Partial<ClientOptions>;
}

/**
 * Whether the model takes `input_fidelity` ("only supported for gpt-image-1.5 and later models, unsupported for
 * gpt-image-1-mini", OpenAI's API reference). High fidelity keeps the face of the reference photos, which is the
 * whole point of a headshot.
 */
export function supportsInputFidelity(model: string): boolean {
  return model.startsWith('gpt-image-') && !model.includes('mini');
}

/**
 * Maps an SDK error to the workflow's named errors: 429 → throttled, with the wait its `retry-after` /
 * `x-ratelimit-reset-*` headers name (except `insufficient_quota`, a billing
 * problem no retry fixes → rejected), 408 and client timeouts → timeout, 409/5xx and connection errors →
 * unavailable, other 4xx → rejected. The message keeps the status and OpenAI's own text (for logs, never shown to
 * users).
 */
export function mapOpenAiError(error: unknown): Error {
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderTimeoutError('OpenAI image edit timed out');
  if (error instanceof APIConnectionError) {
    return new ProviderUnavailableError(`OpenAI connection failed: ${error.message}`);
  }
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    // The SDK's message already starts with the status ("429 Rate limit reached…").
    const text = `OpenAI: ${error.message}`;
    if (status === 429) {
      return error.code === 'insufficient_quota'
        ? new ProviderRejectedError(text)
        : new ProviderThrottledError(
            text,
            retryAfterMs((name) => error.headers?.get(name)),
          );
    }
    if (status === 408) return new ProviderTimeoutError(text);
    if (status === 409 || status >= 500) return new ProviderUnavailableError(text);
    return new ProviderRejectedError(text);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Creates the provider. The SDK's own retries are off (`maxRetries: 0`): Step Functions owns retries, with backoff
 * and jitter per slot, so a retry is visible in the execution history and bounded by the workflow's timeouts.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ImageProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: options.timeoutMs ?? OPENAI_TIMEOUT_MS,
    ...options.clientOptions,
  });
  return {
    name: 'openai',
    async generate(request: HeadshotRequest): Promise<Buffer> {
      const images = await Promise.all(
        request.references.map((bytes, i) => toFile(bytes, `reference-${i + 1}.jpg`, { type: 'image/jpeg' })),
      );
      let response: OpenAI.Images.ImagesResponse;
      try {
        response = await client.images.edit({
          model: options.model,
          image: images,
          prompt: request.prompt,
          size: '1024x1024',
          quality: 'high',
          n: 1,
          output_format: 'jpeg',
          ...(supportsInputFidelity(options.model) ? { input_fidelity: 'high' as const } : {}),
        });
      } catch (error) {
        throw mapOpenAiError(error);
      }
      const b64 = response.data?.[0]?.b64_json;
      if (!b64) throw new ProviderInvalidOutputError('OpenAI answered without b64_json image data');
      return Buffer.from(b64, 'base64');
    },
  };
}
