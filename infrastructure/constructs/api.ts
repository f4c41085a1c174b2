import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../functions/http/routes';
import { COSTLY_WRITE_ROUTES, RATE_LIMITS } from './firewall';
import { acknowledge } from './nag';
import { pascalCase, stackOutput } from './naming';

/** Properties of {@link Api}. */
export interface ApiProps {
  routes: readonly RouteDefinition[];
  /** The function of each handler module of the route table. */
  handlers: ReadonlyMap<string, lambda.IFunction>;
  userPool: cognito.IUserPool;
  client: cognito.IUserPoolClient;
  /**
   * The only origin allowed to call the API cross-origin. The SPA calls `/api` on its own origin through CloudFront
   * (no CORS at all); this matters only for callers of the execute-api URL. A CloudFront domain name is a token that
   * depends on the API itself, so without a custom domain no cross-origin caller is allowed.
   */
  corsOrigin?: string;
  /** Default route throttling of the stage: steady requests per second and burst. */
  throttle?: { rateLimit: number; burstLimit: number };
  logRetention: logs.RetentionDays;
}

/**
 * What one client (one source IP) can send at most, in requests per second, once the web ACL's per-IP rate rules
 * ({@link RATE_LIMITS}, requests per 5 minutes) hold it: writes 600 / 300 s = 2/s, any API request 3000 / 300 s =
 * 10/s, the webhook path 300 / 300 s = 1/s. WAF needs up to about a minute to start blocking; the bursts below
 * absorb that.
 */
export const PER_IP_PEAK = {
  writes: RATE_LIMITS.writes / 300,
  costlyWrites: RATE_LIMITS.costlyWrites / 300,
  api: RATE_LIMITS.api / 300,
  webhook: RATE_LIMITS.webhook / 300,
} as const;

/**
 * What one caller (one JWT, whatever its address) can send at most to the costly write routes, in requests per second:
 * the web ACL's `costlyWritesPerCaller` rule, 60 / 300 s = 0.2/s, answered 429 above it.
 */
export const PER_CALLER_PEAK = { costlyWrites: RATE_LIMITS.costlyWritesPerCaller / 300 } as const;

/**
 * How many sources at their peak it takes to fill a costly write route's shared throttle: 100 addresses at
 * {@link PER_IP_PEAK}`.costlyWrites` (0.5/s), or 250 callers at {@link PER_CALLER_PEAK} (0.2/s), where it took 10
 * addresses at the 2/s every write allowed before (docs/decisions/021-fair-routes.md).
 */
export const SOURCES_TO_FILL_A_COSTLY_ROUTE = 100;

/**
 * How many clients at their per-IP peak it takes to fill a route: every route's steady rate is at least this many
 * times {@link PER_IP_PEAK}, so one caller at the web ACL's limit holds at most 1/10 of any route and the others keep
 * the rest. What a caller may DO is limited per caller `sub` by the quotas in the handlers (functions/adapters/
 * quotas.ts: uploads, photo checks, Checkout Sessions, payment checks, regenerations, edits, data deletions, one generation
 * in flight); these throttles only guard the account.
 */
export const CALLERS_TO_FILL_A_ROUTE = 10;

/**
 * Default stage throttling (every route without its own below, all reads): 10 callers × 10/s = 100/s steady, burst
 * 200. Account guard: API Gateway's regional quota is 10,000 requests/s; the 26 routes together allow 2,200/s (the
 * poll 200, 14 routes at this default 1,400, the webhook 100, analytics 50, 7 costly writes × 50 = 350, the wizard
 * draft's 2 writes × 50 = 100), far under
 * it, and at their typical durations (reads ~0.1 s, writes ≤ 1 s, photo checks a few seconds) within Lambda's
 * default 1,000 concurrent executions.
 */
export const DEFAULT_THROTTLE = { rateLimit: 100, burstLimit: 200 };

/**
 * The throttle of a costly write: 100 addresses × 0.5/s = 50/s steady, twice that as burst. At the default 1,000
 * concurrent executions of an account that holds at most 50 × a photo check's few seconds; what a caller may DO is
 * bounded by its quotas.
 */
export const COSTLY_WRITE = {
  rateLimit: SOURCES_TO_FILL_A_COSTLY_ROUTE * PER_IP_PEAK.costlyWrites,
  burstLimit: 2 * SOURCES_TO_FILL_A_COSTLY_ROUTE * PER_IP_PEAK.costlyWrites,
};

/**
 * The throttle of the wizard draft's writes (`PUT`/`DELETE /api/draft`): an open wizard saves at most once a second
 * while the customer changes it (frontend/src/features/generator/utils/account-draft.ts), so 50/s serves 50 wizards
 * changing in the same second; it is 25 clients at the web ACL's per-IP write limit (2/s), above
 * {@link CALLERS_TO_FILL_A_ROUTE}, and keeps the routes' total far under the regional quota.
 */
export const DRAFT_WRITE = { rateLimit: 50, burstLimit: 100 };

/**
 * Per-route throttles (steady requests per second, burst), each sized by the arithmetic above. API Gateway answers
 * 429 above them for all callers together, so none is small enough for one caller to fill:
 * - the wizard's progress poll is the busiest route by far (every open wizard asks every 2 s): 200/s serves 400
 *   wizards at once, above every other route;
 * - the costly writes (uploads, photo checks, Checkout Sessions, generations, regenerations, edits, deleting data; firewall.ts
 *   `COSTLY_WRITE_ROUTES`) get {@link COSTLY_WRITE}: 50/s, 100 addresses or 250 callers at their web ACL limits;
 *   the per-user quotas bound their cost;
 * - the Stripe webhook is protected by its signature, not by a share a flood could fill: the handler verifies the
 *   HMAC before any other work (a forged request costs one short invocation and no table access), so its throttle is
 *   the account guard only — 100/s is 100 clients at the webhook's per-IP limit of 1/s, and a throttled delivery is
 *   one Stripe retries for 3 days;
 * - product analytics (public) gets a fixed share, so a flood there cannot starve the signed-in routes;
 * - the wizard draft's writes get {@link DRAFT_WRITE}.
 */
export const ROUTE_THROTTLES: Readonly<Record<string, { rateLimit: number; burstLimit: number }>> = {
  'GET /api/generations/{id}': { rateLimit: 200, burstLimit: 400 },
  'POST /api/webhooks/stripe': {
    rateLimit: 100 * PER_IP_PEAK.webhook,
    burstLimit: 200 * PER_IP_PEAK.webhook,
  },
  'POST /api/analytics/events': { rateLimit: 50, burstLimit: 100 },
  'PUT /api/draft': DRAFT_WRITE,
  'DELETE /api/draft': DRAFT_WRITE,
  ...Object.fromEntries(COSTLY_WRITE_ROUTES.map((route) => [route, COSTLY_WRITE])),
};

/**
 * The HTTP API generated from THE route table (`functions/http/routes.ts`): one route per row, integrated with its
 * handler module's function (payload v2), the Cognito JWT authorizer (audience: the web client) on every `jwt` row and
 * no authorizer on `public` and `stripe-signature` rows (the webhook checks Stripe's signature itself). One `$default`
 * stage, auto-deployed, with default throttling, per-route throttles ({@link ROUTE_THROTTLES}) and JSON access logs
 * in CloudWatch Logs.
 */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;
  readonly routes: apigw.HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Headshot Studio API (served under /api by CloudFront)',
      createDefaultStage: false,
      ...(props.corsOrigin
        ? {
            corsPreflight: {
              allowOrigins: [props.corsOrigin],
              allowMethods: [apigw.CorsHttpMethod.ANY],
              allowHeaders: ['authorization', 'content-type'],
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const throttle = props.throttle ?? DEFAULT_THROTTLE;
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            sub: '$context.authorizer.claims.sub',
          }),
        ),
      },
    });

    const authorizer = new HttpUserPoolAuthorizer('CognitoJwt', props.userPool, {
      userPoolClients: [props.client],
      identitySource: ['$request.header.Authorization'],
    });
    const none = new apigw.HttpNoneAuthorizer();

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const integrations = new Map<string, HttpLambdaIntegration>();
    const seen = new Set<string>();
    for (const route of props.routes) {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) throw new Error(`Duplicate route in the route table: ${key}`);
      seen.add(key);
      const handler = props.handlers.get(route.handler);
      if (!handler) throw new Error(`No function for handler ${route.handler} (route ${key})`);
      let integration = integrations.get(route.handler);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${pascalCase(route.handler)}Integration`, handler, {
          payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        });
        integrations.set(route.handler, integration);
      }
      const httpRoute = new apigw.HttpRoute(this, routeId(route), {
        httpApi: this.httpApi,
        routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration,
        authorizer: route.auth === 'jwt' ? authorizer : none,
      });
      if (route.auth !== 'jwt') {
        acknowledge(
          httpRoute,
          'AwsSolutions-APIG4',
          route.auth === 'stripe-signature'
            ? 'Stripe calls this webhook without a JWT; the handler verifies the Stripe-Signature header (HMAC with the webhook secret) before anything else.'
            : `A public route of the route table (${key}): it returns only public data, by design.`,
        );
      }
      this.routes.push(httpRoute);
      const throttle = ROUTE_THROTTLES[key];
      if (throttle) {
        // RouteSettings is a JSON property in CDK's L1: written as CloudFormation spells it.
        routeSettings[key] = {
          ThrottlingRateLimit: throttle.rateLimit,
          ThrottlingBurstLimit: throttle.burstLimit,
        };
        // The stage's route settings name the route: CloudFormation must create it first.
        this.stage.node.addDependency(httpRoute);
      }
    }
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = routeSettings;

    stackOutput(this, 'ApiUrl', this.httpApi.apiEndpoint);
  }
}

/** Construct id of a route: `GET /api/headshots/{id}/download` → `GetApiHeadshotsIdDownload`. */
export function routeId(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = `${route.method.toLowerCase()} ${route.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
