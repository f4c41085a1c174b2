import { Agent, request } from 'node:http';
import { expect } from 'vitest';

/**
 * Raw HTTP for the adversarial tests. node:http rather than fetch: fetch normalises the path (`..`, `%2e`), refuses a
 * body on GET and always sends well-formed URLs, while an attacker's client sends whatever bytes it likes. Only
 * what HTTP/1.1 itself forbids on the request line (anything but visible ASCII) is percent-encoded: a server's HTTP
 * parser refuses such requests before any of our code runs (and API Gateway's front door would too).
 */

/** One request as an attacker (or a broken client) might send it. */
export interface RawRequest {
  method: string;
  /** The request target, sent verbatim: path and query, e.g. `/api/headshots/%zz?cursor=..`. */
  target: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** What came back. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Percent-encodes what may not appear on an HTTP/1.1 request line: controls, space and everything above `~`. */
export function sendable(target: string): string {
  return target.replace(/[^\u0021-\u007e]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate has no UTF-8 form: send U+FFFD instead
    }
  });
}

/**
 * Sends one raw request to `baseUrl` (`http://127.0.0.1:<port>`) and reads the whole answer; `localAddress` picks the
 * loopback address it comes from (per-IP limits).
 */
export function send(baseUrl: string, req: RawRequest, localAddress?: string): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: sendable(req.target),
        ...(localAddress ? { localAddress } : {}),
        headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        timeout: 40_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`${req.method} ${req.target} timed out`)));
    r.on('error', reject);
    r.end(body);
  });
}

/**
 * The contract every answer of the API keeps, whatever was sent: never a 5xx; a 4xx is JSON `{ error: { code,
 * message } }` with a non-empty code and message; a 2xx is JSON (or an empty 204).
 */
export function expectApiContract(req: RawRequest, res: RawResponse): void {
  const where = `${req.method} ${req.target} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(200);
  expect(res.status, where).toBeLessThan(500);
  if (res.status === 204) {
    expect(res.text, where).toBe('');
    return;
  }
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as unknown;
  if (res.status >= 400) {
    expect(body, where).toEqual({
      error: expect.objectContaining({
        code: expect.stringMatching(/^[A-Z_]+$/),
        message: expect.any(String),
      }),
    });
    expect((body as { error: { message: string } }).error.message.length, where).toBeGreaterThan(0);
  }
}
