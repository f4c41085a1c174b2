import fc from 'fast-check';
import { fuzzSettings } from '../adversarial/fuzz-settings';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../infrastructure/local/stand-ins/api-gateway/server';
import { expectApiContract, send, type RawRequest } from '../adversarial/requests';
import { startRouteGateway } from '../helpers/route-gateway';

/*
 * The local API Gateway stand-in against generated paths and queries: the event a handler gets carries the decoded
 * path parameter and the query parameters as API Gateway passes them; a path that is not valid percent-encoding
 * never reaches a handler.
 */

const FUZZ = fuzzSettings();
const RUNS = FUZZ.numRuns;

describe('the local gateway builds the event API Gateway would, whatever the path and query', () => {
  // A test-only public route whose handler records the event it gets.
  let gateway: RunningGateway;
  const seen: APIGatewayProxyEventV2WithJWTAuthorizer[] = [];
  beforeAll(async () => {
    gateway = await startRouteGateway({
      routes: [{ method: 'GET', path: '/api/test/echo/{id}', handler: 'test/echo', auth: 'public' }],
      invoke: async (_route, event) => {
        seen.push(event);
        return { statusCode: 200, body: '{}' };
      },
    });
  });
  afterAll(() => gateway?.stop());

  it(`${RUNS} generated paths and queries: decoded path parameter, query parameters as sent (repeats joined by commas)`, async () => {
    // `.` and `..` are dot segments: URL resolution removes them before any route matches (a 404).
    const segment = fc
      .oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ unit: 'grapheme', minLength: 1 }))
      .filter((id) => id !== '.' && id !== '..');
    const key = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'),
      fc.string(),
    );
    const pairs = fc.array(fc.tuple(key, fc.string({ maxLength: 12 })), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(segment, pairs, async (id, query) => {
        seen.length = 0;
        const search = new URLSearchParams(query).toString();
        const req: RawRequest = {
          method: 'GET',
          target: `/api/test/echo/${encodeURIComponent(id)}${search ? `?${search}` : ''}`,
        };
        const res = await send(gateway.url, req);
        expect(res.status, req.target).toBe(200);
        const model = new Map<string, string>();
        for (const [k, v] of new URLSearchParams(search))
          model.set(k, model.has(k) ? `${model.get(k)},${v}` : v);
        const expected = Object.fromEntries(model);
        const event = seen[0]!;
        expect(event.pathParameters).toEqual({ id });
        expect({ ...event.queryStringParameters }).toEqual(expected);
      }),
      FUZZ,
    );
  });

  it('a path parameter that is not valid percent-encoding → 400 JSON, and the handler is never called', async () => {
    seen.length = 0;
    for (const bad of ['%', '%zz', '%E0%A4%A', 'a%2', '%C0']) {
      const req: RawRequest = { method: 'GET', target: `/api/test/echo/${bad}` };
      const res = await send(gateway.url, req);
      expectApiContract(req, res);
      expect(JSON.parse(res.text)).toEqual({
        error: { code: 'BAD_REQUEST', message: 'The request path is not valid percent-encoding.' },
      });
    }
    expect(seen).toEqual([]);
  });
});
