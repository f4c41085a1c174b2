import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDefinition } from '../../../../functions/http/routes';
import type { JwtAuthorizer } from './jwt-authorizer';
import type { PartLog } from '../../support/log';
import { closeServer, listen, readBody } from '../../support/http';
import { HOST } from '../../support/ports';

/** Calls the Lambda handler of a route with an API Gateway v2 event and returns what the handler returned. */
export type RouteInvoker = (
  route: RouteDefinition,
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
) => Promise<unknown>;

/** API Gateway's payload limit (10 MB) and integration timeout (30 s). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const INTEGRATION_TIMEOUT_MS = 30_000;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  params: string[];
}

/** Turns `/api/headshots/{id}` (or a greedy `{proxy+}`) into a matcher, as API Gateway route keys work. */
export function compileRoute(route: RouteDefinition): CompiledRoute {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const match = /^\{([A-Za-z0-9_]+)(\+)?\}$/.exec(segment);
      if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(match[1]!);
      return match[2] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), params };
}

/** Content types API Gateway passes as text; every other body arrives base64-encoded with `isBase64Encoded`. */
function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript))/i.test(
    contentType,
  );
}

/** Whether a path segment is valid percent-encoding (`decodeURIComponent` throws a URIError on `%zz`, `%E0%A4%A`). */
function isDecodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/**
 * Builds the HTTP API payload v2 event API Gateway would send for this request (rawPath, rawQueryString,
 * lower-cased headers with repeated values joined by commas, cookies, query parameters, path parameters, body with
 * `isBase64Encoded`, request context). `claims` fill `requestContext.authorizer.jwt` for `jwt` routes.
 */
export function buildEvent(options: {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  compiled: CompiledRoute;
  pathValues: string[];
  auth?: { claims: Record<string, string>; scopes: string[] };
}): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { req, url, body, compiled, pathValues, auth } = options;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  // Own properties only: a parameter named `constructor`, `valueOf` or `__proto__` is a parameter like any other.
  const query = Object.create(null) as Record<string, string>;
  for (const [key, value] of url.searchParams) {
    query[key] = Object.hasOwn(query, key) ? `${query[key]},${value}` : value;
  }
  const pathParameters: Record<string, string> = {};
  compiled.params.forEach((name, i) => (pathParameters[name] = decodeURIComponent(pathValues[i] ?? '')));
  const now = new Date();
  const routeKey = `${compiled.route.method} ${compiled.route.path}`;
  const hasBody = body.length > 0;
  const base64 = hasBody && !isTextContentType(headers['content-type']);
  const event = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(compiled.params.length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers['x-forwarded-host'] ?? headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? HOST,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(auth ? { authorizer: { principalId: '', integrationLatency: 0, jwt: auth } } : {}),
    },
    ...(hasBody ? { body: base64 ? body.toString('base64') : body.toString('utf8') } : {}),
    isBase64Encoded: base64,
  };
  return event as APIGatewayProxyEventV2WithJWTAuthorizer;
}

/**
 * Writes a Lambda result the way API Gateway maps payload v2 responses (structured or a bare value → 200 JSON), with
 * a `Content-Length` as API Gateway sends (never chunked: the whole body is known), in one write with the head.
 */
function writeResult(res: ServerResponse, result: unknown): void {
  const structured =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? (result as APIGatewayProxyStructuredResultV2)
      : undefined;
  if (!structured) {
    const body = typeof result === 'string' ? result : JSON.stringify(result ?? null);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(structured.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  const status = structured.statusCode ?? 200;
  // 204 and 304 have no body, and no Content-Length either (RFC 9110 §8.6).
  if (status === 204 || status === 304) {
    res.writeHead(status, headers).end();
    return;
  }
  const body = Buffer.from(structured.body ?? '', structured.isBase64Encoded ? 'base64' : 'utf8');
  headers['content-length'] = String(body.length);
  res.writeHead(status, headers);
  res.end(body);
}

/** A running local HTTP API. */
export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/**
 * The local stand-in for API Gateway's HTTP API: serves the shared route table, runs the JWT authorizer on `jwt`
 * routes (401 JSON without a valid token, before any handler runs), builds payload v2 events and maps results back.
 * Unknown paths → 404, known path with another method → 405, a path parameter that is not valid percent-encoding →
 * 400, bodies over 10 MB → 413, handlers slower than 30 s → 504, a handler that throws → 500 — each with the API's
 * JSON error shape.
 */
export async function startGateway(options: {
  port: number;
  routes: readonly RouteDefinition[];
  authorizer: JwtAuthorizer;
  invoke: RouteInvoker;
  log: PartLog;
}): Promise<RunningGateway> {
  const compiled = options.routes.map(compileRoute);
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      options.log.error(`${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(errorBody('INTERNAL_ERROR', 'Something went wrong on our side. Please try again.'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? HOST}`);
    const method = (req.method ?? 'GET').toUpperCase();
    const send = (status: number, code: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(errorBody(code, message));
      options.log.info(`${method} ${url.pathname} → ${status} (${Date.now() - started} ms)`);
    };
    const candidates = compiled
      .map((c) => ({ c, m: c.pattern.exec(url.pathname) }))
      .filter((x): x is { c: CompiledRoute; m: RegExpExecArray } => x.m !== null);
    const match = candidates.find((x) => x.c.route.method === method);
    if (!match) {
      if (candidates.length)
        return send(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`);
      return send(404, 'NOT_FOUND', `No route for ${method} ${url.pathname}.`);
    }
    // A malformed escape in a path parameter is the client's error (400), never a 500 from decoding it.
    if (!match.m.slice(1).every(isDecodable)) {
      return send(400, 'BAD_REQUEST', 'The request path is not valid percent-encoding.');
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === 'too-large') return send(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 10 MB.');
    let auth: { claims: Record<string, string>; scopes: string[] } | undefined;
    if (match.c.route.auth === 'jwt') {
      auth = await options.authorizer.authorize(req.headers.authorization);
      if (!auth) return send(401, 'UNAUTHORIZED', 'Please sign in to continue.');
    }
    const event = buildEvent({ req, url, body, compiled: match.c, pathValues: match.m.slice(1), auth });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), INTEGRATION_TIMEOUT_MS);
    });
    try {
      const result = await Promise.race([options.invoke(match.c.route, event), timeout]);
      if (result === 'timeout')
        return send(504, 'GATEWAY_TIMEOUT', 'The server took too long to answer. Please try again.');
      writeResult(res, result);
      options.log.info(`${method} ${url.pathname} → ${res.statusCode} (${Date.now() - started} ms)`);
    } catch (error) {
      options.log.error(`${match.c.route.handler} threw: ${(error as Error).stack ?? String(error)}`);
      return send(500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again.');
    } finally {
      clearTimeout(timer);
    }
  }

  const url = await listen(server, options.port, HOST);
  return {
    url,
    port: Number(new URL(url).port),
    server,
    // Stopping twice is fine: the second close's "not running" error means it is already stopped.
    stop: () => closeServer(server).catch(() => undefined),
  };
}
