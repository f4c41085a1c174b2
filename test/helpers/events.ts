import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

/*
 * The sample Lambda events of test/events (SAM convention: one JSON file per handler module, e.g.
 * `http/create-generation.json`, `workflow/finalize.json`): what `npm run invoke` feeds a handler, and what unit
 * tests start from instead of building events by hand.
 */

/** The sample event `test/events/<name>.json`, e.g. `loadEvent('workflow/finalize')`; a fresh copy each call. */
export function loadEvent<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../events/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** What a test changes in a sample HTTP event. */
export interface HttpEventChanges {
  /** The JSON body (serialized), `null` for none; the sample's body when omitted. */
  body?: unknown;
  pathParameters?: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  /** Extra or replaced headers (lower-case names). */
  headers?: Record<string, string>;
  /** The caller's `sub` claim; the sample's caller when omitted. */
  sub?: string;
}

/**
 * The sample API Gateway payload v2 event `test/events/http/<name>.json` (as the HTTP API sends it, with the
 * Cognito JWT authorizer's claims), with `changes` applied.
 */
export function httpEvent(
  name: string,
  changes: HttpEventChanges = {},
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const event = loadEvent<APIGatewayProxyEventV2WithJWTAuthorizer>(`http/${name}`);
  if (changes.body === null) delete event.body;
  else if (changes.body !== undefined) event.body = JSON.stringify(changes.body);
  if (changes.pathParameters) event.pathParameters = changes.pathParameters;
  if (changes.queryStringParameters) event.queryStringParameters = changes.queryStringParameters;
  if (changes.headers) event.headers = { ...event.headers, ...changes.headers };
  if (changes.sub !== undefined) event.requestContext.authorizer.jwt.claims.sub = changes.sub;
  return event;
}
