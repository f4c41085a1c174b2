import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type * as z from 'zod/mini';
import { apiContracts, type RouteContract, type RouteKey } from '../../../functions/contracts';
import type { Me } from '../../../functions/contracts/account';
import { CREDIT_PACKS } from '../../../functions/domain/packs';
import { routes } from '../../../functions/http/routes';
import { TEST_USER } from './auth-session';

/**
 * The API of the SPA's unit tests, at the network level (MSW's `setupServer`, as bulletproof-react's
 * apps/react-vite does): every request the SPA sends to `/api/...` is answered here, by route, in the shape of that
 * route's contract in `functions/contracts` (`apiContracts`: the schemas the handlers answer by and the SPA checks
 * answers with). A test declares only the answers it cares about with {@link answer}; the rest come from
 * {@link DEFAULT_ANSWERS} or, for a route without one, fail the test.
 *
 * What the server enforces, as the deployed API does (functions/http/routes.ts):
 * - a `jwt` route without `Authorization: Bearer …` answers API Gateway's 401 `{ message: 'Unauthorized' }`;
 * - a body or query the route's contract refuses answers 400 `VALIDATION_ERROR`, and fails the test (the SPA sent a
 *   request the API does not take);
 * - an answer a test declares is checked against the route's response schema: one that does not match fails the
 *   test (a raw `Response`, e.g. {@link apiError} or a malformed body on purpose, is sent unchecked);
 * - a request to no declared route (the API or any other host) fails the test.
 *
 * Importing this module starts the server for the importing test file and puts the answers back after each test.
 */

/** One request the SPA sent to a route, as {@link requestsTo} lists them. */
export interface ApiRequest {
  /** The route it matched, e.g. `PATCH /api/headshots/{id}`. */
  route: RouteKey;
  url: URL;
  /** Path parameters by name, e.g. `{ id: 'H1' }`. */
  params: Record<string, string>;
  /** The parsed JSON body; `undefined` when there was none. */
  body: unknown;
  headers: Headers;
}

/** The JSON a route answers on success, as the handler sends it (the schema's input side). */
export type AnswerOf<K extends RouteKey> = z.input<(typeof apiContracts)[K]['response']>;

/** What a route answers: its success body, or a ready `Response` (errors, malformed answers), maybe later. */
type Reply<K extends RouteKey> = AnswerOf<K> | Response;

/** An answer for {@link answer}: a fixed reply, or a function of the request. */
export type Responder<K extends RouteKey> =
  Reply<K> | ((request: ApiRequest) => Reply<K> | Promise<Reply<K>>);

const contracts: Record<RouteKey, RouteContract> = apiContracts;
const authOf = new Map<string, string>(routes.map((r) => [`${r.method} ${r.path}`, r.auth]));
const log: ApiRequest[] = [];
const violations: string[] = [];

/** The API's error shape (`functions/contracts/errors.ts`) with `status`: for {@link answer}. */
export function apiError(status: number, code: string, message: string, details?: unknown): Response {
  return HttpResponse.json(
    { error: { code, message, ...(details === undefined ? {} : { details }) } },
    { status },
  );
}

/** A request that never reaches the server (offline): `fetch` rejects, the SPA's `ApiError` has status 0. */
export function networkError(): Response {
  return HttpResponse.error();
}

/** A responder whose reply never comes, for a screen's waiting state: `answer(route, never)`. */
export function never(): Promise<never> {
  return new Promise(() => {});
}

/**
 * A reply the test sends when it chooses: `reply` is the responder, `send(answer)` settles the request that is
 * waiting (`sent` tells whether one is). Each request waits for its own `send`.
 */
export function held<K extends RouteKey>() {
  const waiting: ((reply: Reply<K>) => void)[] = [];
  return {
    reply: (): Promise<Reply<K>> => new Promise((resolve) => waiting.push(resolve)),
    get sent() {
      return waiting.length > 0;
    },
    send(reply: Reply<K>) {
      const next = waiting.shift();
      if (!next) throw new Error('No request is waiting for an answer');
      next(reply);
    },
  };
}

/** The user the default `GET /api/me` answers: {@link TEST_USER} with 6 credits and nothing running. */
export function meOf(patch: Partial<Me> = {}): Me {
  return {
    id: TEST_USER.sub,
    email: TEST_USER.email,
    displayName: 'ada',
    credits: 6,
    signupBonus: 'granted',
    emailWhenReady: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    activeGeneration: null,
    ...patch,
  };
}

/**
 * What a route answers when the test declared nothing: the reads every signed-in screen makes (the balance, the
 * packs, an empty gallery, purchase history and list of teams, no versions of a headshot, no wizard draft), analytics accepted, every photo checked good, and
 * the wizard's draft saves and discards accepted. A route left out
 * (every other write) must be declared by the test that makes the SPA call it.
 */
export const DEFAULT_ANSWERS: { [K in RouteKey]?: Responder<K> } = {
  'GET /api/me': () => meOf(),
  'GET /api/packs': { packs: CREDIT_PACKS },
  'GET /api/headshots': { items: [], nextCursor: null, stats: { total: 0, favorites: 0 } },
  'GET /api/purchases': { items: [], nextCursor: null },
  // The dashboard's 'Teams' (issue 37): none.
  'GET /api/teams': { items: [] },
  // A headshot's versions (issue 36): none, so a viewer opened by a test that is not about edits shows no strip.
  'GET /api/headshots/{id}/versions': { versions: [] },
  'POST /api/analytics/events': ({ body }) => ({ accepted: (body as { events: unknown[] }).events.length }),
  // The generator's draft kept with the account: none, and every save or discard accepted.
  'GET /api/draft': { draft: null },
  'PUT /api/draft': () => undefined,
  'DELETE /api/draft': () => undefined,
  'POST /api/photo-checks': ({ body }) => ({
    checks: (body as { keys: string[] }).keys.map((key) => ({
      key,
      verdict: 'good',
      score: 90,
      reasons: [],
    })),
    quality: 90,
  }),
};

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Why `value` does not match `schema`, or null when it does. */
function mismatch(schema: z.ZodMiniType | undefined, value: unknown): string | null {
  if (!schema) return null;
  const parsed = schema.safeParse(value);
  return parsed.success ? null : JSON.stringify(parsed.error.issues);
}

/** The MSW handler of `route`: the checks above around `respond`. */
function handlerOf<K extends RouteKey>(route: K, respond: Responder<K>) {
  const [method, path] = route.split(' ') as [string, string];
  const on = http[method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'];
  return on(path.replace(/\{(\w+)\}/g, ':$1'), async ({ request, params }) => {
    const url = new URL(request.url);
    const entry: ApiRequest = {
      route,
      url,
      params: params as Record<string, string>,
      body: await readJson(request.clone()),
      headers: request.headers,
    };
    log.push(entry);
    if (authOf.get(route) === 'jwt' && !request.headers.get('authorization')?.startsWith('Bearer ')) {
      return HttpResponse.json({ message: 'Unauthorized' }, { status: 401 });
    }
    const contract = contracts[route];
    const refused =
      mismatch(contract.body, entry.body) ?? mismatch(contract.query, Object.fromEntries(url.searchParams));
    if (refused) {
      violations.push(`The SPA sent ${route} a request its contract refuses: ${refused}`);
      return apiError(400, 'VALIDATION_ERROR', 'The request does not match the contract.');
    }
    const reply = typeof respond === 'function' ? await respond(entry) : respond;
    if (reply instanceof Response) return reply;
    const wrong = mismatch(contract.response, reply);
    if (wrong) {
      violations.push(`The test's answer to ${route} does not match its contract: ${wrong}`);
      return apiError(500, 'INTERNAL_ERROR', 'The answer does not match the contract.');
    }
    if (contract.status === 204) return new HttpResponse(null, { status: 204 });
    return HttpResponse.json(reply as object, { status: contract.status });
  });
}

/** A route no test declared and without a default: the test fails, naming it. */
function undeclared(route: RouteKey) {
  return handlerOf(route, () => {
    violations.push(`The SPA called ${route}, which this test declared no answer for (answer(...) it)`);
    return apiError(501, 'NOT_DECLARED', `No answer declared for ${route}.`);
  });
}

const defaults = (Object.keys(contracts) as RouteKey[]).map((route) => {
  const respond = DEFAULT_ANSWERS[route] as Responder<RouteKey> | undefined;
  return respond === undefined ? undeclared(route) : handlerOf(route, respond);
});

/** The mock server; most tests need only {@link answer}, {@link answerUrl} and {@link requestsTo}. */
export const server = setupServer(...defaults);

/** Makes `route` answer with `respond` for the rest of this test (after it, the defaults again). */
export function answer<K extends RouteKey>(route: K, respond: Responder<K>): void {
  server.use(handlerOf(route, respond));
}

/**
 * Answers requests to a URL outside the API (e.g. S3's presigned URLs) with `respond`, for the rest of this test.
 * `method` `options` answers the browser's CORS preflight.
 */
export function answerUrl(
  method: 'get' | 'post' | 'options',
  url: string,
  respond: (request: Request) => Response | Promise<Response>,
): void {
  server.use(http[method](url, ({ request }) => respond(request)));
}

/** The requests the SPA has sent to `route` in this test, oldest first. */
export function requestsTo(route: RouteKey): ApiRequest[] {
  return log.filter((entry) => entry.route === route);
}

beforeAll(() =>
  server.listen({
    onUnhandledFrame({ frame, defaults: reactions }) {
      const request = (frame.data as { request?: Request }).request;
      violations.push(`The SPA sent ${request?.method} ${request?.url}, which no handler answers`);
      reactions.error();
    },
  }),
);
afterEach(() => {
  server.resetHandlers();
  log.length = 0;
  const found = violations.splice(0);
  if (found.length) throw new Error(found.join('\n'));
});
afterAll(() => server.close());
