import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { routes } from '../../functions/http/routes';
import { deployedFunctions } from '../../functions/catalogue';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';

/**
 * `test/events/` holds realistic sample events (SAM convention: one JSON event per file), used by
 * `sam local invoke -t cdk.out/<stack>.template.json <FunctionId> -e test/events/<file>.json` and `npm run invoke`.
 * Ids and tokens are fake. Events are matched to handlers by content (an HTTP event by its routeKey, a Cognito event
 * by its triggerSource) or, for workflow tasks, by file name (`<handler module>.json` or `<function name>.json`).
 */
const EVENTS = join(REPO_ROOT, 'test', 'events');

/** The common shape of Cognito user pool trigger events. */
interface CognitoTriggerEvent {
  version: string;
  region: string;
  userPoolId: string;
  userName: string;
  triggerSource: string;
  request: { userAttributes: Record<string, string> };
  response: unknown;
}

type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

function allEvents(dir = EVENTS): { file: string; event: Record<string, unknown> }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return allEvents(path);
    if (!entry.name.endsWith('.json')) return [];
    return [
      {
        file: relative(EVENTS, path),
        event: JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>,
      },
    ];
  });
}

const events = allEvents();
const httpEvents = events.filter((e) => e.event.version === '2.0' && typeof e.event.routeKey === 'string');
const cognitoEvents = events.filter((e) => typeof e.event.triggerSource === 'string');
const routeHandlers = [...new Set(routes.map((r) => r.handler))];
const catalogue = deployedFunctions.filter((f) => f.kind !== 'http' && f.kind !== 'webhook');

describe('sample events', () => {
  for (const { file, event: raw } of httpEvents) {
    it(`${file}: an HTTP API payload v2 event of a route in the route table`, () => {
      const event = raw as unknown as HttpEvent;
      const route = routes.find((r) => `${r.method} ${r.path}` === event.routeKey);
      expect(route, `routeKey ${event.routeKey} is not in functions/http/routes.ts`).toBeDefined();
      expect(event.requestContext.routeKey).toBe(event.routeKey);
      expect(event.requestContext.http.method).toBe(route!.method);
      expect(event.rawPath).toMatch(new RegExp(`^${route!.path.replace(/\{[^}]+\}/g, '[^/]+')}$`));
      const authorizer = event.requestContext.authorizer as
        HttpEvent['requestContext']['authorizer'] | undefined;
      if (route!.auth === 'jwt') {
        const claims = authorizer?.jwt?.claims as Record<string, string> | undefined;
        expect(claims?.sub).toMatch(/^[0-9a-f-]{36}$/);
        expect(claims?.iss).toMatch(/^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\/[a-z0-9-]+_\w+$/);
      } else {
        expect(authorizer?.jwt).toBeUndefined();
      }
      if (route!.auth === 'stripe-signature') {
        expect(event.headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}/);
      }
    });
  }

  for (const { file, event: raw } of cognitoEvents) {
    it(`${file}: a Cognito trigger event of a deployed trigger`, () => {
      const event = raw as unknown as CognitoTriggerEvent;
      const trigger = catalogue.find(
        (f) => f.cognitoTrigger && event.triggerSource.startsWith(`${f.cognitoTrigger}_`),
      );
      expect(trigger, `no catalogue function handles ${event.triggerSource}`).toBeDefined();
      expect(event.userPoolId).toMatch(/^[a-z]{2}-[a-z]+-\d_[A-Za-z0-9]+$/);
      expect(event.request.userAttributes.sub).toBe(event.userName);
      expect(event.response).toEqual({});
    });
  }

  describe('every handler has one', () => {
    for (const handler of routeHandlers) {
      const keys = routes.filter((r) => r.handler === handler).map((r) => `${r.method} ${r.path}`);
      const found = httpEvents.some((e) => keys.includes(e.event.routeKey as string));
      if (found) it(`${handler}`, () => expect(found).toBe(true));
      else
        it(`${handler}`, () =>
          expect.fail(`add an HTTP API v2 event for ${keys.join(' or ')} under test/events/`));
    }
    for (const fn of catalogue) {
      const found = fn.cognitoTrigger
        ? cognitoEvents.some((e) => (e.event.triggerSource as string).startsWith(`${fn.cognitoTrigger}_`))
        : events.some((e) => [`${fn.handler}.json`, `${fn.name}.json`].includes(e.file));
      if (found) it(`${fn.name}`, () => expect(found).toBe(true));
      else it(`${fn.name}`, () => expect.fail(`add test/events/${fn.handler}.json`));
    }
  });

  it('the public handlers answer their sample events (no AWS needed)', async () => {
    for (const handler of ['http/health', 'http/packs']) {
      const mod = (await import(join(REPO_ROOT, 'functions', `${handler}.ts`))) as {
        handler: (event: unknown) => Promise<{ statusCode: number }>;
      };
      const sample = JSON.parse(readFileSync(join(EVENTS, `${handler}.json`), 'utf8')) as unknown;
      expect((await mod.handler(sample)).statusCode, handler).toBe(200);
    }
  });
});
