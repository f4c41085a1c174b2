import { namedError } from '../../domain/named-error';
import type { Background, Style } from '../../domain/styles';
import type { Resolution } from '../../domain/headshot-variants';
import type { EditRequest } from '../../domain/edits';

/**
 * The one interface every image provider implements (docs/architecture.md §4): one call makes ONE headshot, so the workflow
 * retries, refunds and saves per slot.
 */

/** What a provider gets for one headshot. */
export interface HeadshotRequest {
  /** The edit prompt (domain/prompts.ts). */
  prompt: string;
  /** 1-3 normalized reference photos (upright JPEG, long edge ≤ 1024 px), best first. */
  references: Buffer[];
  style: Style;
  background: Background;
  /** 0-5: which of the generation's six headshots this is (providers may vary their output by it). */
  slot: number;
  /** The generation id, for logs and for variation seeds. */
  generationId: string;
  /**
   * The canvas asked for (domain/headshot-variants.ts): `standard` (default) or the high-resolution option, which a
   * provider whose model cannot make it answers at its standard canvas.
   */
  resolution?: Resolution;
  /**
   * The caller's keyed hash (domain/provider-refusals.ts `safetyIdentifier`): OpenAI's `safety_identifier`, so its
   * abuse monitoring acts on the caller rather than on our organisation. Absent on generations started before it.
   */
  safetyIdentifier?: string;
  /**
   * What the call is for (issue 36): a first `generation` (the default), an `edit` of a finished headshot, or its
   * `upscale`. The provider chooses its parameters per purpose (docs/openai-image-models.md, "Parameters per use").
   */
  purpose?: 'generation' | 'edit' | 'upscale';
  /**
   * The headshot to edit (an edit or an upscale): `image` is the source version's (or the original's) stored file, sent
   * as the call's one input image, and `request` what the customer asked to change (domain/edits.ts).
   */
  edit?: { image: Buffer; request: EditRequest };
  /**
   * Called with each partial image a streaming provider sends before the final one (PNG bytes, `index` 0-based as
   * OpenAI's `partial_image_index`); a provider or model that does not stream never calls it. A failure of the
   * callback does not fail the call (a preview is optional).
   */
  onPartialImage?: (image: Buffer, index: number) => Promise<void>;
}

/** An image provider. */
export interface ImageProvider {
  /** `openai` or `local`: logged, and recorded on each headshot it makes (`local` ones are previews). */
  readonly name: string;
  /**
   * Makes one headshot.
   *
   * @returns the encoded image bytes (PNG, JPEG or WebP): a portrait canvas (domain/headshot-variants.ts) the
   *   caller cuts the square, the portrait and the original from
   * @throws {ProviderThrottledError} rate limited (back in line for its `retryAfterMs`)
   * @throws {ProviderUnavailableError} the service failed (5xx, connection error; retryable)
   * @throws {ProviderTimeoutError} no answer in time (retryable)
   * @throws {ProviderRejectedError} the request was refused (4xx other than 429: not retryable)
   */
  generate(request: HeadshotRequest): Promise<Buffer>;
}

/*
 * Errors the workflow's Retry and Catch match by name (Step Functions reads the thrown error's `name`, so each sets
 * it explicitly: a bundler renaming classes cannot break matching).
 */

/**
 * The provider is rate limiting us (HTTP 429, not `insufficient_quota`). The slot goes back in line; every admission
 * pauses for `retryAfterMs` (from `retry-after` / `x-ratelimit-reset-*`; `undefined` when the answer named none).
 */
export class ProviderThrottledError extends Error {
  override readonly name = 'ProviderThrottledError';
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The provider failed on its side (HTTP 5xx, connection reset). Retried with backoff and full jitter. */
export class ProviderUnavailableError extends namedError('ProviderUnavailableError') {}

/** The provider did not answer within the client timeout. Retried once. */
export class ProviderTimeoutError extends namedError('ProviderTimeoutError') {}

/** The provider refused the request (HTTP 4xx other than 429: moderation, invalid input, bad key). Not retried. */
export class ProviderRejectedError extends namedError('ProviderRejectedError') {}

/** The provider answered without a usable image (no data, undecodable bytes). Not retried: the slot is refunded. */
export class ProviderInvalidOutputError extends namedError('ProviderInvalidOutputError') {}

/** What OpenAI named when it refused our configuration (its error body's `param` and `code`, and the status). */
export interface MisconfigurationDetails {
  /** The configured model id. */
  model: string | null;
  /** The parameter OpenAI named (`input_fidelity`, `quality`, `model`, …), `null` when none. */
  param: string | null;
  /** OpenAI's error code (`invalid_input_fidelity_model`, `invalid_api_key`, …), `null` when none. */
  code: string | null;
  /** The HTTP status (400, 401, 403 or 404); `null` when the call was never made. */
  status: number | null;
}

/**
 * The provider cannot be called as configured: the `openai` provider without an API key (or with the secret's
 * placeholder), or OpenAI refused our configuration itself (a 400 naming a parameter the model does not take, a bad
 * key, an unknown or shut-down model). Not retried: the slot fails and is refunded, and every occurrence counts in
 * the `ProviderMisconfigured` metric an alarm watches (with the model, param and code), so a broken deployment is
 * loud, never silently offline.
 */
export class ProviderMisconfiguredError extends namedError('ProviderMisconfiguredError') {
  constructor(
    message: string,
    readonly details: MisconfigurationDetails = { model: null, param: null, code: null, status: null },
  ) {
    super(message);
  }
}
