import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import * as z from 'zod/mini';
import { callerHash } from '../common/caller-hash';
import { useEnglishIssueMessages } from '../common/zod-locale';
import { withLambdaContext } from '../common/lambda-context';
import { logger } from '../common/logger';
import { loadSecrets } from '../common/secrets';
import { badRequest, toHttpError, unauthorized, type ApiErrorBody } from './errors';
import { cameThroughCloudFront } from './origin-verify';

export { callerHash };

/** An API Gateway HTTP API (payload v2) event, with or without a JWT authorizer context. */
export type HttpEvent = APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithJWTAuthorizer;
/** What every HTTP handler returns: always the structured form, body already serialised. */
export type HttpResult = APIGatewayProxyStructuredResultV2;

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/**
 * A JSON response with `statusCode` and the serialised `body`; name the route's contract type (functions/contracts)
 * as `T` so the answer is checked against it: `json<GalleryPage>(200, page)`.
 */
export function json<T = unknown>(
  statusCode: number,
  body: T,
  headers: Record<string, string> = {},
): HttpResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** 204 No Content (no body, not cached). */
export function noContent(): HttpResult {
  return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
}

/**
 * The error response for any thrown value: an HttpError or a named domain error with an HTTP form ({@link toHttpError})
 * keeps its status and headers; anything else is a 500 without internals.
 */
export function errorResponse(error: unknown): HttpResult {
  const httpError = toHttpError(error);
  if (httpError) {
    const body: ApiErrorBody = { error: { code: httpError.code, message: httpError.message } };
    if (httpError.details !== undefined) body.error.details = httpError.details;
    return json(httpError.statusCode, body, httpError.headers);
  }
  logger.error('Unhandled error', error as Error);
  const body: ApiErrorBody = {
    error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' },
  };
  return json(500, body);
}

/** The request context every log line of one invocation carries: request id, route and the caller's hash. */
function requestKeys(event: HttpEvent): Record<string, string> {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext?.authorizer?.jwt?.claims;
  const sub = claims?.sub;
  return {
    ...(event.requestContext?.requestId ? { requestId: event.requestContext.requestId } : {}),
    ...(event.routeKey ? { route: event.routeKey } : {}),
    ...(typeof sub === 'string' && sub !== '' ? { caller: callerHash(sub) } : {}),
  };
}

/**
 * Wraps a route's logic, the edge of every HTTP handler: the function returns a result or throws; a thrown error is
 * answered by the ONE error table (functions/http/errors.ts `ERROR_TABLE`), anything not in it is the JSON 500.
 * Every log line of the invocation carries the Lambda context (`addContext`: request id, cold start, function) and
 * `{ requestId, route, caller }` (`caller`: {@link callerHash} of the JWT's sub), cleared when it ends.
 */
export function httpHandler<E extends HttpEvent>(
  fn: (event: E) => Promise<HttpResult>,
): (event: E, context?: Context) => Promise<HttpResult> {
  return withLambdaContext(async (event: E) => {
    if (!cameThroughCloudFront(event.headers)) {
      const body: ApiErrorBody = { error: { code: 'FORBIDDEN', message: 'Call the API through the site.' } };
      return json(403, body);
    }
    try {
      await loadSecrets();
      return await fn(event);
    } catch (error) {
      return errorResponse(error);
    }
  }, requestKeys);
}

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The raw request body as text, decoding API Gateway's base64 form when `isBase64Encoded`. */
export function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Parses the JSON body with a zod schema.
 *
 * @throws {HttpError} 400 `VALIDATION_ERROR` when the body is missing, not JSON, or does not match.
 */
export function parseBody<S extends z.core.$ZodType>(event: HttpEvent, schema: S): z.output<S> {
  const text = rawBody(event);
  let data: unknown;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  useEnglishIssueMessages();
  const result = z.safeParse(schema, data);
  if (!result.success)
    throw badRequest(`Invalid request: ${describeIssues(result.error)}`, result.error.issues);
  return result.data;
}

/**
 * Parses the query string parameters with a zod schema (absent parameters arrive as `undefined`).
 *
 * @throws {HttpError} 400 `VALIDATION_ERROR` when they do not match.
 */
export function parseQuery<S extends z.core.$ZodType>(event: HttpEvent, schema: S): z.output<S> {
  useEnglishIssueMessages();
  const result = z.safeParse(schema, event.queryStringParameters ?? {});
  if (!result.success)
    throw badRequest(`Invalid query: ${describeIssues(result.error)}`, result.error.issues);
  return result.data;
}

/** The verified caller of a `jwt` route: the Cognito user's `sub` and e-mail from the authorizer's claims. */
export interface Caller {
  sub: string;
  email: string | undefined;
  /**
   * The ID token's `email_verified` (API Gateway passes claims as strings: `"true"`); false when absent (an access
   * token carries no e-mail). Joining a team needs it (docs/teams.md "Invitations").
   */
  emailVerified: boolean;
}

/**
 * The caller of a `jwt` route, from `requestContext.authorizer.jwt.claims` (verified by API Gateway's JWT authorizer
 * in the cloud, by the local gateway locally). Every item a handler touches is scoped to `caller.sub`.
 *
 * @throws {HttpError} 401 when the event carries no verified claims (a route wired without the authorizer).
 */
export function callerOf(event: HttpEvent): Caller {
  const claims = (event as APIGatewayProxyEventV2WithJWTAuthorizer).requestContext.authorizer?.jwt?.claims;
  const sub = claims?.sub;
  if (typeof sub !== 'string' || sub === '') throw unauthorized();
  const email = claims?.email;
  const verified = claims?.email_verified;
  return {
    sub,
    email: typeof email === 'string' ? email : undefined,
    emailVerified: verified === true || verified === 'true',
  };
}
