/**
 * The one way the SPA talks to the HTTP API (docs/architecture.md §3): JSON in, JSON out, and every failure turned into an
 * {@link ApiError} whose `message` can be shown to a person.
 */

/**
 * Returns the current bearer token, or nothing when signed out. May refresh the session first; `forceRefresh`
 * asks for new tokens even when the current ones look valid (after the API answered 401).
 */
export type TokenProvider = (options?: {
  forceRefresh?: boolean;
}) => Promise<string | null | undefined> | string | null | undefined;

/** Settings of the API client, set once at boot from the runtime configuration. */
export interface ApiClientOptions {
  /** Base path of the API on the site's origin, e.g. `/api`. */
  apiBase: string;
  /** Supplies the bearer token for each request; the auth layer registers it (see {@link setTokenProvider}). */
  getToken?: TokenProvider;
}

/** A request for {@link apiFetch}: a `RequestInit` whose `body`, when given, is any JSON-serialisable value. */
export interface ApiRequestInit extends Omit<RequestInit, 'body'> {
  body?: unknown;
}

/** A failed API call. `status` is 0 when the server could not be reached at all. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    /** Stable, machine-readable reason, e.g. `VALIDATION_ERROR`, `UNAUTHORIZED`, `NETWORK_ERROR`. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let options: ApiClientOptions = { apiBase: '/api' };

/** Sets the API base (and optionally the token provider). `main.tsx` calls it before the first render. */
export function configureApi(next: ApiClientOptions): void {
  options = { ...next };
}

/**
 * Registers (or, with `undefined`, removes) the function that supplies the bearer token. The auth layer calls it
 * once it knows how to get a token, so this module never depends on the auth library.
 */
export function setTokenProvider(getToken: TokenProvider | undefined): void {
  options = { ...options, getToken };
}

/** Joins the API base and a path without doubling or dropping the slash between them. */
export function apiUrl(path: string, apiBase: string = options.apiBase): string {
  return `${apiBase.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

const STATUS_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  402: 'INSUFFICIENT_CREDITS',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'TOO_MANY_REQUESTS',
};

const STATUS_MESSAGES: Record<number, string> = {
  401: 'Please sign in to continue.',
  403: "You don't have access to this.",
  404: 'Not found.',
  429: 'Too many requests. Please wait a moment and try again.',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds the {@link ApiError} for a non-2xx answer. Understands our handlers' `{ error: { code, message } }` and
 * API Gateway's own `{ message }` (its authorizer and throttling answer before any handler runs).
 */
export function toApiError(status: number, body: unknown): ApiError {
  const fallbackCode = STATUS_CODES[status] ?? (status >= 500 ? 'SERVER_ERROR' : `HTTP_${status}`);
  const fallbackMessage =
    STATUS_MESSAGES[status] ?? `Something went wrong (HTTP ${status}). Please try again.`;

  if (isRecord(body) && isRecord(body.error)) {
    const { code, message, details } = body.error;
    return new ApiError(
      status,
      typeof code === 'string' && code ? code : fallbackCode,
      typeof message === 'string' && message ? message : fallbackMessage,
      details,
    );
  }
  if (isRecord(body) && typeof body.message === 'string' && body.message) {
    return new ApiError(status, fallbackCode, body.message);
  }
  return new ApiError(status, fallbackCode, fallbackMessage);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Calls the API at `path` (relative to the configured base) and returns the parsed JSON answer, or `undefined`
 * for an empty one (204). A non-JSON `body` in `init` is sent as JSON.
 * @throws {ApiError} on a non-2xx status, a network failure (`status` 0) or an answer that is not JSON.
 */
export async function apiFetch<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const { body, headers: initHeaders, ...rest } = init;
  const headers = new Headers(initHeaders);
  headers.set('accept', 'application/json');
  if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');

  const send = async (token: string | null | undefined): Promise<Response> => {
    const sent = new Headers(headers);
    if (token) sent.set('authorization', `Bearer ${token}`);
    try {
      return await globalThis.fetch(apiUrl(path), {
        ...rest,
        headers: sent,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      // An abort is the caller's own decision (react-query cancelling a query), not a failure to report.
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(
        0,
        'NETWORK_ERROR',
        "We couldn't reach the server. Check your connection and try again.",
      );
    }
  };

  const token = options.getToken ? await options.getToken() : undefined;
  let response = await send(token);
  // A token that expired on the way (or a clock that runs late) gets one retry with a refreshed session, instead
  // of the 401 that would sign the person out.
  if (response.status === 401 && token && options.getToken) {
    const fresh = await options.getToken({ forceRefresh: true });
    if (fresh && fresh !== token) response = await send(fresh);
  }

  const parsed = await readBody(response);
  if (!response.ok) throw toApiError(response.status, parsed);
  if (typeof parsed === 'string') {
    // Typically the SPA's index.html served where the API should be: a routing problem, not data.
    throw new ApiError(
      response.status,
      'INVALID_RESPONSE',
      'The server sent an unexpected answer. Please try again.',
    );
  }
  return parsed as T;
}

/** Anything with zod's `safeParse`: the response schemas of `lib/api/contracts.ts`. */
interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * Checks an API answer against its response schema and returns the parsed value (unknown keys dropped).
 * @throws {ApiError} `INVALID_RESPONSE` when the answer does not have the promised shape
 */
export function parseAnswer<T>(schema: ResponseSchema<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'INVALID_RESPONSE', 'The server sent an unexpected answer. Please try again.');
  }
  return parsed.data;
}

/** Calls the API like {@link apiFetch} and checks the answer with {@link parseAnswer}. */
export async function apiCall<T>(
  path: string,
  schema: ResponseSchema<T>,
  init: ApiRequestInit = {},
): Promise<T> {
  return parseAnswer(schema, await apiFetch<unknown>(path, init));
}
