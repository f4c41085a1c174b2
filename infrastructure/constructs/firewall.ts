import type * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { stackOutput } from './naming';
import {
  anyOf,
  byteMatch,
  logBlockedRequests,
  managedRuleGroupRule,
  perIpRateRule,
  rateRule,
  visibility,
} from './waf';

/**
 * Per-IP request limits of the web ACL, in requests per 5-minute window (WAF counts per source IP and blocks the
 * excess until the rate falls back under the limit):
 * - `webhook`: Stripe's webhook; Stripe delivers one request per event from a few addresses, so 300 per 5 minutes
 *   (1/s) is far above a shop's event rate and far below what a flood needs;
 * - `publicWrite`: POSTs to a route without a JWT (product analytics): a page sends a handful per visit;
 * - `writes`: every other POST/PATCH/DELETE under `/api/` (each is authenticated and also quota-limited per user);
 * - `costlyWrites`: the costly write routes ({@link COSTLY_WRITE_ROUTES}) alone: a person's hourly quotas on them
 *   (functions/config/quotas.ts: 100 uploads, 100 photo checks, 30 regenerations, 30 edits, 10 Checkout Sessions, 10
 *   data deletions) add up to 280 an hour, about 23 per 5 minutes; 150 lets 6 people behind one address (an office's
 *   NAT) each use all of theirs in the same 5 minutes (docs/decisions/021-fair-routes.md);
 * - `costlyWritesPerCaller`: the same routes per caller, counted by the `Authorization` header (the caller's JWT), not
 *   by address: 60 per 5 minutes is over 2.5 times a person's hourly quotas spent in 5 minutes; above it that caller
 *   alone gets 429 with `Retry-After`, before the routes' shared throttles ({@link PER_CALLER_BLOCK_STATUS});
 * - `api`: everything under `/api/`, the wizard's poll included (one GET every 2 s is 150 per 5 minutes);
 * - `site`: any request at all (the SPA's files are cached by the browser after the first visit).
 */
export const RATE_LIMITS = {
  webhook: 300,
  publicWrite: 300,
  writes: 600,
  costlyWrites: 150,
  costlyWritesPerCaller: 60,
  api: 3000,
  site: 6000,
} as const;

/** What a caller over its own limit gets: 429 Too Many Requests (RFC 6585 §4), as the quotas answer, not 403. */
export const PER_CALLER_BLOCK_STATUS = 429;

/**
 * The costly write routes (`METHOD /path`, as the route table writes them): each starts work that costs us money or
 * CPU (a presigned upload, a photo check on the vision models, a Checkout Session at Stripe, a generation, a
 * regeneration, an edit, a deletion of every object of the caller). Their shared API Gateway throttle is api.ts `COSTLY_WRITE`.
 */
export const COSTLY_WRITE_ROUTES = [
  'POST /api/uploads',
  'POST /api/checkout/sessions',
  'POST /api/photo-checks',
  'POST /api/generations',
  'POST /api/headshots/{id}/regenerate',
  'POST /api/headshots/{id}/edits',
  'DELETE /api/me/data',
] as const;

/** The paths of the public write routes (no JWT) the `publicWrite` limit covers. */
export const PUBLIC_WRITE_PATHS = ['/api/analytics/events'] as const;

/** Properties of {@link Firewall}. */
export interface FirewallProps {
  /** Prefix of the metric names and of the web ACL's name (unique per stage and region). */
  name: string;
  /** The webhook's path (`/api/webhooks/stripe`). */
  webhookPath: string;
  /** How long the log of blocked and counted requests is kept. */
  logRetention: logs.RetentionDays;
}

/**
 * Request headers WAF must not write to its log: the caller's JWT and Stripe's webhook signature (a replayable
 * credential for the signed body while it is fresh).
 */
export const REDACTED_HEADERS = ['authorization', 'stripe-signature'] as const;

const pathStartsWith = (path: string) => byteMatch({ uriPath: {} }, 'STARTS_WITH', path);
const methodIs = (method: string) => byteMatch({ method: {} }, 'EXACTLY', method);

/**
 * Matches the requests of one route (`POST /api/headshots/{id}/regenerate`): its method, and its path exactly or, with
 * one `{param}`, the part before it and the part after it.
 */
export function routeIs(route: string): wafv2.CfnWebACL.StatementProperty {
  const [method, path] = route.split(' ') as [string, string];
  const [before, after] = path.split(/\{[^}]+\}/) as [string, string | undefined];
  const pathParts =
    after === undefined
      ? [byteMatch({ uriPath: {} }, 'EXACTLY', path)]
      : [pathStartsWith(before), ...(after ? [byteMatch({ uriPath: {} }, 'ENDS_WITH', after)] : [])];
  return { andStatement: { statements: [methodIs(method), ...pathParts] } };
}

/**
 * The AWS WAF web ACL in front of CloudFront (scope `CLOUDFRONT`, which AWS accepts only in us-east-1): the AWS
 * managed common rule set (not on the webhook's signed bodies), known bad inputs and the Amazon IP reputation list, then per-IP rate-based rules — tighter
 * on the Stripe webhook and on public writes than on the authenticated API, tighter still on the costly write routes,
 * and a ceiling for the whole site — and a per-caller one (by JWT) on the costly writes ({@link RATE_LIMITS}). Blocked requests answer 403; every rule has CloudWatch metrics and sampled requests, and
 * every request a rule blocked or counted is logged to CloudWatch Logs (`aws-waf-logs-<name>`, the prefix WAF
 * requires) with {@link REDACTED_HEADERS} redacted, so an operator can see who was blocked and by which rule.
 * Allowed requests are not logged: CloudFront's own metrics and the API's access log cover them.
 */
export class Firewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    const webAclName = props.name;
    // Stripe's signed event bodies are JSON of any size and content: the body rules (8 KB size limit, XSS and
    // file-inclusion patterns) would block real events, and the handler verifies the signature before reading them.
    const notWebhook: wafv2.CfnWebACL.StatementProperty = {
      notStatement: { statement: pathStartsWith(props.webhookPath) },
    };
    const managed = (priority: number, name: string, scopeDown?: wafv2.CfnWebACL.StatementProperty) =>
      managedRuleGroupRule({ webAclName, priority, name, scopeDown });
    const rateLimit = (
      priority: number,
      name: keyof typeof RATE_LIMITS,
      scopeDown?: wafv2.CfnWebACL.StatementProperty,
    ) => perIpRateRule({ webAclName, priority, name, limit: RATE_LIMITS[name], scopeDown });
    const writeMethods = anyOf(['POST', 'PUT', 'PATCH', 'DELETE'].map(methodIs));
    const costlyWrites = anyOf(COSTLY_WRITE_ROUTES.map(routeIs));

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: webAclName,
      description: 'Headshot Studio: managed rules and per-IP rate limits in front of CloudFront',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      // The web ACL's metric name is the `WebACL` dimension of its AWS/WAFV2 metrics (VisibilityConfig.MetricName,
      // https://docs.aws.amazon.com/waf/latest/APIReference/API_VisibilityConfig.html): the alarm and the dashboard
      // find its BlockedRequests by the web ACL's name, so the two are the same.
      visibilityConfig: visibility(webAclName),
      rules: [
        rateLimit(0, 'webhook', pathStartsWith(props.webhookPath)),
        rateLimit(1, 'publicWrite', {
          andStatement: { statements: [methodIs('POST'), anyOf(PUBLIC_WRITE_PATHS.map(pathStartsWith))] },
        }),
        rateLimit(2, 'writes', { andStatement: { statements: [writeMethods, pathStartsWith('/api/')] } }),
        rateLimit(3, 'api', pathStartsWith('/api/')),
        rateLimit(4, 'site'),
        rateRule({
          webAclName,
          priority: 5,
          name: 'costlyWritesPerCaller',
          limit: RATE_LIMITS.costlyWritesPerCaller,
          key: { header: 'authorization' },
          scopeDown: costlyWrites,
          blockStatus: PER_CALLER_BLOCK_STATUS,
        }),
        rateLimit(6, 'costlyWrites', costlyWrites),
        managed(10, 'AWSManagedRulesAmazonIpReputationList'),
        managed(11, 'AWSManagedRulesCommonRuleSet', notWebhook),
        managed(12, 'AWSManagedRulesKnownBadInputsRuleSet'),
      ],
    });
    stackOutput(this, 'WebAclArn', this.webAcl.attrArn);

    const logGroup = logBlockedRequests(this, {
      webAcl: this.webAcl,
      webAclName,
      retention: props.logRetention,
      redactedHeaders: REDACTED_HEADERS,
    });
    stackOutput(this, 'WebAclLogGroup', logGroup.logGroupName);
  }
}
