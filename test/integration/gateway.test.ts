import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { startGateway, type RunningGateway } from '../../infrastructure/local/stand-ins/api-gateway/server';
import { createCognitoJwtAuthorizer } from '../../infrastructure/local/stand-ins/api-gateway/jwt-authorizer';
import { createPartLog } from '../../infrastructure/local/support/log';
import type { RouteDefinition } from '../../functions/http/routes';
import { cognitoLocalKey, signJwt, strangerKey } from '../helpers/jwt';
import { createTestUser, type TestUser } from '../helpers/cognito';

const { gatewayUrl, runtimeConfig, env } = inject('localStack');

describe('local gateway with the shared route table', () => {
  it('GET /api/packs returns the three packs in cents, with a Content-Length as API Gateway sends', async () => {
    const res = await fetch(`${gatewayUrl}/api/packs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBeNull();
    const length = Number(res.headers.get('content-length'));
    expect(length).toBe((await res.clone().arrayBuffer()).byteLength);
    const { packs } = (await res.json()) as {
      packs: { name: string; credits: number; priceCents: number; popular: boolean }[];
    };
    expect(packs.map((p) => [p.name, p.credits, p.priceCents, p.popular])).toEqual([
      ['Starter Pack', 40, 3500, false],
      ['Popular Pack', 60, 4500, true],
      ['Pro Pack', 100, 7500, false],
    ]);
  });

  it('GET /api/health is ok', async () => {
    const res = await fetch(`${gatewayUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('answers unknown routes and wrong methods with the JSON error shape', async () => {
    const missing = await fetch(`${gatewayUrl}/api/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const wrongMethod = await fetch(`${gatewayUrl}/api/packs`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect((await wrongMethod.json()).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('JWT authorizer (test-only route)', () => {
  const testRoutes: RouteDefinition[] = [
    { method: 'POST', path: '/api/test/things/{thingId}', handler: 'test/echo', auth: 'jwt' },
    { method: 'GET', path: '/api/test/open', handler: 'test/echo', auth: 'public' },
  ];
  let gateway: RunningGateway;
  let user: TestUser;
  const seen: APIGatewayProxyEventV2WithJWTAuthorizer[] = [];
  const issuer = `${env.COGNITO_ENDPOINT}/${runtimeConfig.userPoolId}`;

  beforeAll(async () => {
    const authorizer = await createCognitoJwtAuthorizer({
      cognitoEndpoint: env.COGNITO_ENDPOINT!,
      userPoolId: runtimeConfig.userPoolId,
      clientId: runtimeConfig.userPoolClientId,
    });
    gateway = await startGateway({
      port: 0,
      routes: testRoutes,
      authorizer,
      log: createPartLog('api', { quiet: true }),
      invoke: async (_route, event) => {
        seen.push(event);
        return {
          statusCode: 200,
          body: JSON.stringify({ claims: event.requestContext.authorizer?.jwt.claims ?? null }),
        };
      },
    });
    user = await createTestUser({
      userPoolId: runtimeConfig.userPoolId,
      clientId: runtimeConfig.userPoolClientId,
    });
  });
  afterAll(() => gateway.stop());

  const call = (token?: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}/api/test/things/t%201?size=2&size=3&q=x`, {
      method: 'POST',
      ...init,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        'X-Custom-Header': 'Yes',
        ...init.headers,
      },
    });

  it('passes a valid ID token and a valid access token, with the claims API Gateway gives', async () => {
    for (const token of [user.idToken, user.accessToken]) {
      const res = await call(token);
      expect(res.status).toBe(200);
      const { claims } = (await res.json()) as { claims: Record<string, string> };
      expect(claims.sub).toBe(user.sub);
      expect(typeof claims.exp).toBe('string');
    }
  });

  it('builds a payload v2 event: path and query parameters, lower-cased headers, base64 for binary bodies', async () => {
    seen.length = 0;
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]);
    await call(user.idToken, { body: bytes, headers: { 'Content-Type': 'image/jpeg' } });
    const event = seen[0]!;
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('POST /api/test/things/{thingId}');
    expect(event.rawPath).toBe('/api/test/things/t%201');
    expect(event.pathParameters).toEqual({ thingId: 't 1' });
    expect(event.queryStringParameters).toEqual({ size: '2,3', q: 'x' });
    expect(event.rawQueryString).toBe('size=2&size=3&q=x');
    expect(event.headers['x-custom-header']).toBe('Yes');
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body!, 'base64')).toEqual(bytes);
    expect(event.requestContext.http.method).toBe('POST');
    expect(event.requestContext.authorizer.jwt.claims.email).toBe(user.email);

    seen.length = 0;
    await call(user.idToken, { body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(seen[0]!.isBase64Encoded).toBe(false);
    expect(seen[0]!.body).toBe('{"a":1}');
  });

  it('rejects a missing, forged, expired, foreign-issuer or foreign-client token with 401 JSON before the handler', async () => {
    const { key, kid } = cognitoLocalKey();
    const now = Math.floor(Date.now() / 1000);
    const good = {
      sub: user.sub,
      aud: runtimeConfig.userPoolClientId,
      iss: issuer,
      token_use: 'id',
      iat: now - 60,
      exp: now + 600,
      email: user.email,
    };
    // Sanity: the same minting with cognito-local's key and good claims is accepted, so each rejection below is
    // due to the one claim or key that differs.
    expect((await call(signJwt(good, key, kid))).status).toBe(200);
    seen.length = 0;
    const cases: [string, string | undefined][] = [
      ['no token', undefined],
      ['garbage', 'not-a-jwt'],
      ['signed by another key', signJwt(good, strangerKey(), kid)],
      ['expired', signJwt({ ...good, iat: now - 7200, exp: now - 3600 }, key, kid)],
      ['wrong issuer', signJwt({ ...good, iss: 'http://127.0.0.1:1/other-pool' }, key, kid)],
      ['wrong client', signJwt({ ...good, aud: 'another-client' }, key, kid)],
    ];
    for (const [, token] of cases) {
      const res = await call(token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    }
    expect(seen).toHaveLength(0);
  });

  it('lets public routes through without a token', async () => {
    const res = await fetch(`${gateway.url}/api/test/open`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ claims: null });
  });
});
