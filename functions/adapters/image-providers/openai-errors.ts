import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  ProviderMisconfiguredError,
  ProviderRejectedError,
  ProviderThrottledError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from './types';
import { retryAfterMs } from '../../domain/slot-outcomes';

/**
 * Parameters that carry the customer's content, not our configuration: a 400 naming one of them refuses this
 * request only (a reference photo OpenAI cannot read, a prompt its safety system blocks).
 */
const CONTENT_PARAMS = new Set(['image', 'image[]', 'prompt', 'mask']);

/**
 * Maps an SDK error to the workflow's named errors:
 * - 429 → throttled, with the wait its `retry-after` / `x-ratelimit-reset-*` headers name (except
 *   `insufficient_quota`, our billing, which no retry fixes and the caller did not cause → misconfigured);
 * - 400 naming a configuration parameter (`param` in OpenAI's error body, e.g. `input_fidelity`, `quality`, `model`),
 *   401 (bad key), 403 (model not enabled for the organization) and 404 (unknown or shut-down model) →
 *   {@link ProviderMisconfiguredError} carrying OpenAI's status, param and code: every slot would fail the same way;
 * - 408 and client timeouts → timeout; 409/5xx and connection errors → unavailable; other 4xx → rejected (the
 *   caller's refusal: domain/provider-refusals.ts counts it against them).
 * - an `error` event in a stream (no status: openai-stream.ts) → {@link mapStreamError}.
 * The message keeps the status and OpenAI's own text (for logs, never shown to users).
 */
export function mapOpenAiError(error: unknown, model?: string): Error {
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderTimeoutError('OpenAI image edit timed out');
  if (error instanceof APIConnectionError) {
    return new ProviderUnavailableError(`OpenAI connection failed: ${error.message}`);
  }
  if (error instanceof APIError) {
    if (error.status === undefined) return mapStreamError(error, model);
    const status = error.status;
    // The SDK's message already starts with the status ("429 Rate limit reached…").
    const text = `OpenAI: ${error.message}`;
    if (status === 429) {
      // `insufficient_quota` is our organisation's billing, not the caller's request: it must page, never count as
      // the caller's refusal (docs/decisions/018-provider-refusals.md).
      if (error.code === 'insufficient_quota') {
        return new ProviderMisconfiguredError(text, {
          model: model ?? null,
          param: null,
          code: 'insufficient_quota',
          status,
        });
      }
      return new ProviderThrottledError(
        text,
        retryAfterMs((name) => error.headers?.get(name)),
      );
    }
    const param = typeof error.param === 'string' && error.param ? error.param : null;
    const configParam = status === 400 && param !== null && !CONTENT_PARAMS.has(param);
    if (configParam || status === 401 || status === 403 || status === 404) {
      return new ProviderMisconfiguredError(text, {
        model: model ?? null,
        param,
        code: typeof error.code === 'string' ? error.code : null,
        status,
      });
    }
    if (status === 408) return new ProviderTimeoutError(text);
    if (status === 409 || status >= 500) return new ProviderUnavailableError(text);
    return new ProviderRejectedError(text);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * An `error` event mid-stream (the SDK throws it as an `APIError` without a status): OpenAI's own `server_error`
 * type → unavailable (retried); a configuration parameter named → misconfigured; anything else (e.g.
 * `moderation_blocked` inside the stream, theopenco/llmgateway#2129) → the caller's refusal, as its HTTP twin.
 */
function mapStreamError(error: APIError, model?: string): Error {
  const text = `OpenAI stream: ${error.message}`;
  if (error.type === 'server_error') return new ProviderUnavailableError(text);
  const param = typeof error.param === 'string' && error.param ? error.param : null;
  if (param !== null && !CONTENT_PARAMS.has(param)) {
    return new ProviderMisconfiguredError(text, {
      model: model ?? null,
      param,
      code: typeof error.code === 'string' ? error.code : null,
      status: null,
    });
  }
  return new ProviderRejectedError(text);
}
