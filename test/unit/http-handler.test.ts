import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { callerOf, httpHandler, json, parseBody, parseQuery } from '../../functions/http/handler';
import { HttpError } from '../../functions/http/errors';
import { httpEvent } from '../helpers/events';

/** The sample `POST /api/checkout/sessions` event (test/events/http) with `over` applied. */
const event = (over: Partial<APIGatewayProxyEventV2>): APIGatewayProxyEventV2 => {
  const sample: APIGatewayProxyEventV2 = httpEvent('create-checkout-session', { body: null });
  return { ...sample, ...over };
};
const schema = z.object({ packId: z.enum(['starter', 'popular', 'pro']) });

describe('HTTP handler helpers', () => {
  it('parses a valid JSON body, base64 or not', () => {
    expect(parseBody(event({ body: '{"packId":"pro"}' }), schema)).toEqual({ packId: 'pro' });
    const b64 = Buffer.from('{"packId":"starter"}').toString('base64');
    expect(parseBody(event({ body: b64, isBase64Encoded: true }), schema)).toEqual({ packId: 'starter' });
  });

  it('answers 400 with the JSON error shape for bad JSON, bad fields and bad queries', async () => {
    const h = httpHandler(async (e: APIGatewayProxyEventV2) => json(200, parseBody(e, schema)));
    for (const body of ['{', '{"packId":"gold"}', undefined]) {
      const res = await h(event({ body }));
      expect(res.statusCode).toBe(400);
      const parsed = JSON.parse(res.body!);
      expect(parsed.error.code).toBe('VALIDATION_ERROR');
      expect(typeof parsed.error.message).toBe('string');
    }
    expect(() =>
      parseQuery(event({ queryStringParameters: { n: 'x' } }), z.object({ n: z.coerce.number() })),
    ).toThrow(HttpError);
  });

  it('turns unexpected errors into a 500 without internals', async () => {
    const h = httpHandler(async () => {
      throw new Error('connection string postgres://secret');
    });
    const res = await h(event({}));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(JSON.parse(res.body!).error.code).toBe('INTERNAL_ERROR');
  });

  it('reads the caller from verified JWT claims and refuses events without them', () => {
    const withClaims = httpEvent('me', { sub: 'abc' });
    withClaims.requestContext.authorizer.jwt.claims.email = 'a@b.co';
    expect(callerOf(withClaims)).toEqual({ sub: 'abc', email: 'a@b.co' });
    expect(() => callerOf({ requestContext: {} } as never)).toThrow(HttpError);
  });
});
