import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  apiContracts,
  apiErrorBodySchema,
  type ApiErrorBody,
  type ResponseOf,
  type RouteKey,
} from '../../functions/contracts';
import { routes } from '../../functions/http/routes';
import { loadEvent } from './events';

/**
 * THE backend route harness: an API Gateway HTTP API (payload v2) event for one route of the route table — the
 * route's sample event from test/events/ (test/helpers/events.ts) with the caller's JWT claims, path, query and body
 * put in — the route's own handler called in-process, and the answer parsed with the route's contract
 * (functions/contracts), so a body that breaks the contract fails the test.
 */

/** What to send: the caller (omit `sub` for no JWT claims), the path parameters, query, body and headers. */
export interface RouteCall {
  sub?: string;
  email?: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as JSON; a string is sent as is (e.g. malformed JSON). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A parsed answer: the contract's success body, or the API's error body. */
export type RouteAnswer<K extends RouteKey> =
  | { ok: true; status: number; headers: Record<string, string>; body: ResponseOf<K> }
  | { ok: false; status: number; headers: Record<string, string>; error: ApiErrorBody['error'] };

function routeOf(key: RouteKey) {
  const route = routes.find((r) => `${r.method} ${r.path}` === key);
  if (!route) throw new Error(`No route ${key} in functions/http/routes.ts`);
  return route;
}

/** The payload v2 event API Gateway would send for `key` with `call` (JWT claims only when `sub` is given). */
export function routeEvent(key: RouteKey, call: RouteCall = {}): APIGatewayProxyEventV2WithJWTAuthorizer {
  const route = routeOf(key);
  const event = loadEvent<APIGatewayProxyEventV2WithJWTAuthorizer>(route.handler);
  const path = route.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => call.pathParameters?.[name] ?? `{${name}}`,
  );
  const claims = event.requestContext.authorizer?.jwt?.claims ?? {};
  const { authorizer: _sample, ...context } = event.requestContext;
  return {
    ...event,
    routeKey: key,
    rawPath: path,
    rawQueryString: new URLSearchParams(call.query ?? {}).toString(),
    headers: { ...event.headers, 'content-type': 'application/json', ...call.headers },
    queryStringParameters: call.query,
    pathParameters: call.pathParameters,
    body: call.body === undefined || typeof call.body === 'string' ? call.body : JSON.stringify(call.body),
    requestContext: {
      ...context,
      routeKey: key,
      requestId: `test-${Math.random().toString(36).slice(2)}`,
      http: { ...event.requestContext.http, method: route.method, path },
      ...(call.sub === undefined
        ? {}
        : {
            authorizer: {
              principalId: '',
              integrationLatency: 0,
              jwt: { claims: { ...claims, sub: call.sub, email: call.email ?? claims.email }, scopes: [] },
            },
          }),
    },
  } as APIGatewayProxyEventV2WithJWTAuthorizer;
}

/**
 * Calls the route's handler with {@link routeEvent} and parses the answer: the contract's response schema for its
 * success status, the API's error shape otherwise.
 */
export async function callRoute<K extends RouteKey>(key: K, call: RouteCall = {}): Promise<RouteAnswer<K>> {
  const route = routeOf(key);
  const module = (await import(
    /* @vite-ignore */ fileURLToPath(new URL(`../../functions/${route.handler}.ts`, import.meta.url))
  )) as { handler: (event: unknown) => Promise<APIGatewayProxyStructuredResultV2> };
  const res = await module.handler(routeEvent(key, call));
  const status = res.statusCode ?? 200;
  const headers = (res.headers ?? {}) as Record<string, string>;
  const json: unknown = res.body ? JSON.parse(res.body) : undefined;
  const contract = apiContracts[key];
  if (status === contract.status) {
    return { ok: true, status, headers, body: contract.response.parse(json) as ResponseOf<K> };
  }
  return { ok: false, status, headers, error: apiErrorBodySchema.parse(json).error };
}
