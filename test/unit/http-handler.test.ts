import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { logger } from '../../functions/common/logger';
import { apiErrorBodySchema } from '../../functions/contracts';
import { InsufficientCreditsError } from '../../functions/domain/credits';
import { GenerationInProgressError, PhotosExpiredError } from '../../functions/domain/errors';
import { QuotaExceededError } from '../../functions/domain/quotas';
import { callerHash, callerOf, httpHandler, json, parseBody, parseQuery } from '../../functions/http/handler';
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
    // The sample is an ID token of a confirmed address: API Gateway passes `email_verified` as the string "true".
    expect(callerOf(withClaims)).toEqual({ sub: 'abc', email: 'a@b.co', emailVerified: true });
    withClaims.requestContext.authorizer.jwt.claims.email_verified = 'false';
    expect(callerOf(withClaims).emailVerified).toBe(false);
    delete withClaims.requestContext.authorizer.jwt.claims.email_verified;
    expect(callerOf(withClaims).emailVerified).toBe(false);
    expect(() => callerOf({ requestContext: {} } as never)).toThrow(HttpError);
  });
});

describe('the error table at the edge', () => {
  const answer = async (error: Error) => {
    const res = await httpHandler(async () => {
      throw error;
    })(event({}));
    return {
      status: res.statusCode,
      headers: res.headers,
      body: apiErrorBodySchema.parse(JSON.parse(res.body!)),
    };
  };

  it('maps named errors to their status, code, message and details', async () => {
    expect(await answer(new InsufficientCreditsError(2, 6))).toMatchObject({
      status: 402,
      body: {
        error: {
          code: 'INSUFFICIENT_CREDITS',
          message: 'Insufficient credits! You need 6 credits but only have 2.',
          details: { required: 6, credits: 2 },
        },
      },
    });
    const quota = await answer(new QuotaExceededError('uploads', 120, 'Too many uploads.'));
    expect(quota).toMatchObject({ status: 429, headers: { 'retry-after': '120' } });
    expect(quota.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'uploads' } });
    expect(await answer(new GenerationInProgressError('01ABC'))).toMatchObject({
      status: 409,
      body: { error: { code: 'GENERATION_IN_PROGRESS', details: { generationId: '01ABC' } } },
    });
    expect((await answer(new PhotosExpiredError())).body.error.code).toBe('PHOTOS_EXPIRED');
  });
});

describe('request context on every log line', () => {
  it('appends the request id, route and a hash of the sub (never the sub itself), and clears them after', async () => {
    const append = vi.spyOn(logger, 'appendKeys');
    const reset = vi.spyOn(logger, 'resetKeys');
    const sub = '6d716c5a-579a-47d4-82f0-e1ea157c6776';
    const h = httpHandler(async () => json(200, {}));
    await h(
      event({
        routeKey: 'GET /api/me',
        requestContext: { requestId: 'req-1', authorizer: { jwt: { claims: { sub } } } },
      } as never),
    );
    expect(append).toHaveBeenCalledWith({
      requestId: 'req-1',
      route: 'GET /api/me',
      caller: callerHash(sub),
    });
    expect(callerHash(sub)).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(append.mock.calls)).not.toContain(sub);
    expect(reset).toHaveBeenCalled();
    append.mockRestore();
    reset.mockRestore();
  });
});
