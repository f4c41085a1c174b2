import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiFetch,
  apiUrl,
  configureApi,
  setTokenProvider,
  toApiError,
} from '../../../frontend/src/lib/api-client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  configureApi({ apiBase: '/api' });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiUrl', () => {
  it('joins base and path with exactly one slash', () => {
    expect(apiUrl('/packs', '/api')).toBe('/api/packs');
    expect(apiUrl('packs', '/api/')).toBe('/api/packs');
    expect(apiUrl('/headshots?cursor=abc', 'https://example.test/api')).toBe(
      'https://example.test/api/headshots?cursor=abc',
    );
  });
});

describe('apiFetch', () => {
  it('GETs JSON from the configured base', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { packs: [] }));
    configureApi({ apiBase: '/v1/api/' });

    await expect(apiFetch('/packs')).resolves.toEqual({ packs: [] });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/v1/api/packs');
    const headers = new Headers(init?.headers);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.has('authorization')).toBe(false);
    expect(init?.body).toBeUndefined();
  });

  it('sends a body as JSON', async () => {
    fetchMock.mockResolvedValue(jsonResponse(201, { id: 'x' }));

    await apiFetch('/checkout/sessions', { method: 'POST', body: { packId: 'popular' } });

    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"packId":"popular"}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it('adds the bearer token from the registered provider', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    setTokenProvider(async () => 'tok.en.value');

    await apiFetch('/me');
    expect(new Headers(fetchMock.mock.calls[0]![1]?.headers).get('authorization')).toBe(
      'Bearer tok.en.value',
    );

    setTokenProvider(() => null);
    await apiFetch('/me');
    expect(new Headers(fetchMock.mock.calls[1]![1]?.headers).has('authorization')).toBe(false);
    setTokenProvider(undefined);
  });

  it('returns undefined for an empty answer', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(apiFetch('/headshots/1', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it("parses the API's error shape", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(402, {
        error: {
          code: 'INSUFFICIENT_CREDITS',
          message: 'Insufficient credits! You need 6 credits but only have 2.',
        },
      }),
    );

    const error = await caught(apiFetch('/generations', { method: 'POST', body: {} }));
    expect(error.status).toBe(402);
    expect(error.code).toBe('INSUFFICIENT_CREDITS');
    expect(error.message).toBe('Insufficient credits! You need 6 credits but only have 2.');
  });

  it("tolerates API Gateway's own { message } answers", async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Unauthorized' }));

    const error = await caught(apiFetch('/me'));
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Unauthorized' });
  });

  it('gives a readable error for a non-JSON failure', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502 }));

    const error = await caught(apiFetch('/packs'));
    expect(error.status).toBe(502);
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message).toMatch(/try again/i);
  });

  it('rejects a successful answer that is not JSON (e.g. the SPA shell)', async () => {
    fetchMock.mockResolvedValue(new Response('<!doctype html><html></html>', { status: 200 }));

    const error = await caught(apiFetch('/packs'));
    expect(error.code).toBe('INVALID_RESPONSE');
  });

  it('reports a network failure with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    const error = await caught(apiFetch('/packs'));
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('lets an abort through unchanged', async () => {
    fetchMock.mockRejectedValue(new DOMException('The operation was aborted.', 'AbortError'));

    await expect(apiFetch('/packs')).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('toApiError', () => {
  it('falls back per field when the error object is incomplete', () => {
    expect(toApiError(404, { error: { message: 'Not found.' } })).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Not found.',
    });
    expect(toApiError(400, { error: { code: 'VALIDATION_ERROR' } }).message).toMatch(/HTTP 400/);
  });

  it('keeps details', () => {
    const details = [{ path: ['packId'] }];
    expect(toApiError(400, { error: { code: 'VALIDATION_ERROR', message: 'Bad', details } }).details).toBe(
      details,
    );
  });

  it('maps unknown statuses to a generic code', () => {
    expect(toApiError(418, null).code).toBe('HTTP_418');
    expect(toApiError(503, 'Service Unavailable').code).toBe('SERVER_ERROR');
  });
});

describe('apiFetch and token refresh', () => {
  it('retries a 401 once with a refreshed token, instead of failing (and signing the user out)', async () => {
    const tokens: (boolean | undefined)[] = [];
    setTokenProvider(({ forceRefresh } = {}) => {
      tokens.push(forceRefresh);
      return forceRefresh ? 'fresh-token' : 'expired-token';
    });
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { message: 'Unauthorized' }))
      .mockResolvedValueOnce(jsonResponse(200, { credits: 6 }));
    await expect(apiFetch('/me')).resolves.toEqual({ credits: 6 });
    expect(tokens).toEqual([undefined, true]);
    const sentAuth = fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('authorization'));
    expect(sentAuth).toEqual(['Bearer expired-token', 'Bearer fresh-token']);
    setTokenProvider(undefined);
  });

  it('does not retry when the refresh brings no new token, nor more than once', async () => {
    setTokenProvider(() => 'same-token');
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Unauthorized' }));
    expect((await caught(apiFetch('/me'))).status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockReset();
    let n = 0;
    setTokenProvider(() => `token-${(n += 1)}`);
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Unauthorized' }));
    expect((await caught(apiFetch('/me'))).status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    setTokenProvider(undefined);
  });
});
