import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COSTLY_WRITE,
  PER_CALLER_PEAK,
  PER_IP_PEAK,
  ROUTE_THROTTLES,
} from '../../infrastructure/constructs/api';
import { COSTLY_WRITE_ROUTES, RATE_LIMITS } from '../../infrastructure/constructs/firewall';
import {
  parseReservedConcurrency,
  quotaNeeded,
  RESERVED_CONCURRENCY,
} from '../../infrastructure/constructs/reserved-concurrency';
import { InvalidContextError } from '../../infrastructure/constructs/refusal';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { routes } from '../../functions/http/routes';
import { appFunctions, devStack, testStack } from './helpers';
import { webAclRules, type WafRule, type WafStatement } from './waf-rules';

/** Decision 021 (docs/decisions/021-fair-routes.md): no caller can push the others into 429 on the costly routes. */

type Statement = WafStatement;

const cloudFrontRules = (template: Template) => webAclRules(template, 'CLOUDFRONT');

/** The routes (`METHOD /path` with `{id}` as the route table writes it) a scope-down's OR of route matches covers. */
function routesMatched(scopeDown: Statement | undefined): string[] {
  const or = (scopeDown?.OrStatement as { Statements: Statement[] } | undefined)?.Statements ?? [];
  return or.map((and) => {
    const parts = (and.AndStatement as { Statements: { ByteMatchStatement: Statement }[] }).Statements.map(
      (s) =>
        s.ByteMatchStatement as {
          FieldToMatch: Statement;
          PositionalConstraint: string;
          SearchString: string;
        },
    );
    const method = parts.find((p) => 'Method' in p.FieldToMatch)!.SearchString;
    const paths = parts.filter((p) => 'UriPath' in p.FieldToMatch);
    const path =
      paths.length === 1 && paths[0]!.PositionalConstraint === 'EXACTLY'
        ? paths[0]!.SearchString
        : `${paths.find((p) => p.PositionalConstraint === 'STARTS_WITH')!.SearchString}{id}${
            paths.find((p) => p.PositionalConstraint === 'ENDS_WITH')?.SearchString ?? ''
          }`;
    return `${method} ${path}`;
  });
}

describe('per-caller limits in front of the costly routes’ shared throttles', () => {
  let rules: Map<string, WafRule>;
  let throttles: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
  beforeAll(() => {
    const { template } = devStack();
    rules = cloudFrontRules(template);
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'));
    throttles = (stage!.Properties as { RouteSettings: typeof throttles }).RouteSettings;
  });

  it('names every costly write of the route table, each with its own shared throttle', () => {
    const table = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const route of COSTLY_WRITE_ROUTES) {
      expect(table, route).toContain(route);
      expect(throttles[route], route).toEqual({
        ThrottlingRateLimit: COSTLY_WRITE.rateLimit,
        ThrottlingBurstLimit: COSTLY_WRITE.burstLimit,
      });
      expect(ROUTE_THROTTLES[route]).toBe(COSTLY_WRITE);
    }
  });

  it('limits each caller (its JWT) on exactly those routes, and answers it 429 with Retry-After', () => {
    const rule = rules.get('rate-costlyWritesPerCaller')!;
    const statement = rule.Statement.RateBasedStatement!;
    expect(statement.AggregateKeyType).toBe('CUSTOM_KEYS');
    expect(statement.CustomKeys).toEqual([
      { Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
    ]);
    expect(statement.Limit).toBe(RATE_LIMITS.costlyWritesPerCaller);
    expect(statement.EvaluationWindowSec).toBe(300);
    expect(routesMatched(statement.ScopeDownStatement).sort()).toEqual([...COSTLY_WRITE_ROUTES].sort());
    expect(rule.Action?.Block?.CustomResponse).toEqual({
      ResponseCode: 429,
      ResponseHeaders: [{ Name: 'retry-after', Value: '300' }],
    });
  });

  it('limits each address on those routes below the limit on every write', () => {
    const statement = rules.get('rate-costlyWrites')!.Statement.RateBasedStatement!;
    expect(statement.AggregateKeyType).toBe('IP');
    expect(statement.Limit).toBe(RATE_LIMITS.costlyWrites);
    expect(statement.Limit).toBeLessThan(RATE_LIMITS.writes);
    expect(routesMatched(statement.ScopeDownStatement).sort()).toEqual([...COSTLY_WRITE_ROUTES].sort());
  });

  it('takes 100 addresses or 250 callers at their limits to fill a costly route, where 10 addresses did', () => {
    const before = 20 / (RATE_LIMITS.writes / 300);
    expect(before).toBe(10);
    expect(COSTLY_WRITE.rateLimit / PER_IP_PEAK.costlyWrites).toBe(100);
    expect(COSTLY_WRITE.rateLimit / PER_CALLER_PEAK.costlyWrites).toBe(250);
    // A person spending every hourly quota of these routes (about 250 requests an hour) is far under its caller limit.
    expect(250 / 12).toBeLessThan(RATE_LIMITS.costlyWritesPerCaller);
  });
});

describe('reserved concurrency for the Stripe webhook and the dispatcher, opt-in', () => {
  const reserved = (template: Template) =>
    new Map(
      [...appFunctions(template)]
        .map(([id, { resource }]) => [id, resource.Properties!.ReservedConcurrentExecutions] as const)
        .filter(([, n]) => n !== undefined),
    );

  it('reserves nothing by default (a new account’s quota of 10 refuses any reservation)', () => {
    expect(reserved(devStack().template).size).toBe(0);
  });

  it('reserves 10 for the webhook and 2 for the dispatcher with reservedConcurrency=true', () => {
    const { reservedConcurrency } = settingsFromContext(contextApp({ reservedConcurrency: 'true' }).node);
    const { template } = testStack({ stage: 'dev', reservedConcurrency }, 'Reserved-dev');
    expect(Object.fromEntries(reserved(template))).toEqual({ WebhooksStripe: 10, ProviderDispatcher: 2 });
    expect(quotaNeeded(RESERVED_CONCURRENCY)).toBe(112);
  });

  it('takes numbers per function, and refuses unknown names or counts', () => {
    expect(parseReservedConcurrency('webhooks-stripe=20,provider-dispatcher=3')).toEqual({
      reservations: { 'webhooks-stripe': 20, 'provider-dispatcher': 3 },
    });
    expect(parseReservedConcurrency('false')).toEqual({ reservations: {} });
    expect(parseReservedConcurrency(undefined)).toEqual({ reservations: {} });
    for (const bad of ['yes', 'http-me=5', 'webhooks-stripe=0', 'webhooks-stripe=x']) {
      expect(parseReservedConcurrency(bad), bad).toHaveProperty('problem');
    }
    expect(() => settingsFromContext(contextApp({ reservedConcurrency: 'all' }).node)).toThrow(
      InvalidContextError,
    );
  });
});

function contextApp(context: Record<string, string>): App {
  return new App({ context });
}
