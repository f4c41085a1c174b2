import OpenAI, { NotFoundError, type ClientOptions } from 'openai';
import { imageProviderSettings } from '../config/image-provider';

/**
 * The provider's calendar, read from OpenAI: `GET /v1/models/{model}` with the official SDK's `models.retrieve`
 * (the `openai` npm package 7.57.0, `resources/models.d.ts`: `Model.shutdown_date?: string | null`). OpenAI's
 * deprecations page names this field as the way to watch shutdowns programmatically ("call the List models endpoint …
 * and check each model's optional shutdown_date field … also available from the Retrieve a model endpoint",
 * https://developers.openai.com/api/docs/deprecations). The key is read the way the image provider reads it
 * (config/image-provider.ts: OPENAI_API_KEY, filled from the secret by common/secrets.ts).
 */

/** What the calendar needs of one model. */
export interface ProviderModelInfo {
  /** The model id OpenAI answered with. */
  id: string;
  /** First day OpenAI refuses the model (UTC `YYYY-MM-DD`), `null` when no shutdown is announced. */
  shutdownDate: string | null;
}

/**
 * OpenAI answered 404 for the model: it does not exist, is no longer served, or the organisation has no access
 * (`model_not_found`, "The model `…` does not exist or you do not have access to it": rd-1-2022/ai-openai-helloworld#9,
 * Shopify/roast#13). Every image call with it would fail as well.
 */
export class ProviderModelNotFoundError extends Error {
  override name = 'ProviderModelNotFoundError';
  constructor(
    readonly model: string,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link createModelCalendar}. */
export interface ModelCalendarOptions {
  apiKey: string;
  /** Another server speaking OpenAI's API (the local stand-in); default OpenAI's. */
  baseURL?: string;
  /** Client timeout in ms; default 20 s (a metadata read, answered in well under a second). */
  timeoutMs?: number;
  /** Extra SDK options (tests, `npm run check:provider`: a recording `fetch`). */
  clientOptions?: Partial<ClientOptions>;
}

/**
 * A reader of models' calendars. The SDK retries twice on 429/5xx/connection errors (its default), which suits a
 * daily metadata read: nothing waits on it.
 *
 * @returns `retrieve(model)`, resolving to the model's id and shutdown date; it throws
 *   {@link ProviderModelNotFoundError} on a 404, and the SDK's `APIError` for any other refusal (401: a wrong key)
 */
export function createModelCalendar(options: ModelCalendarOptions): {
  retrieve: (model: string) => Promise<ProviderModelInfo>;
} {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 20_000,
    ...options.clientOptions,
  });
  return {
    async retrieve(model) {
      try {
        const answer = await client.models.retrieve(model);
        return { id: answer.id, shutdownDate: answer.shutdown_date ?? null };
      } catch (error) {
        if (error instanceof NotFoundError) throw new ProviderModelNotFoundError(model, error.message);
        throw error;
      }
    },
  };
}

/** The configured provider as the calendar sees it: which provider, which model, and whether a key is there. */
export interface CalendarSettings {
  provider: 'openai' | 'local';
  model: string;
  hasApiKey: boolean;
}

/** This environment's provider settings (config/image-provider.ts), without the key itself. */
export function calendarSettings(): CalendarSettings {
  const settings = imageProviderSettings();
  return {
    provider: settings.IMAGE_PROVIDER,
    model: settings.OPENAI_IMAGE_MODEL,
    hasApiKey: Boolean(settings.OPENAI_API_KEY),
  };
}

/**
 * The configured model's calendar entry, read with this environment's key and endpoint.
 *
 * @throws Error when no OPENAI_API_KEY is configured; {@link ProviderModelNotFoundError} on a 404; the SDK's
 *   `APIError` otherwise
 */
export async function retrieveProviderModel(model: string): Promise<ProviderModelInfo> {
  const settings = imageProviderSettings();
  if (!settings.OPENAI_API_KEY) throw new Error('OPENAI_API_KEY is not configured');
  return createModelCalendar({ apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL }).retrieve(
    model,
  );
}
