import type * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { stackOutput } from './naming';
import { anyOf, byteMatch, logBlockedRequests, managedRuleGroupRule, perIpRateRule, visibility } from './waf';

/**
 * Per-IP request limits of the web ACL, in requests per 5-minute window (WAF counts per source IP and blocks the
 * excess until the rate falls back under the limit):
 * - `webhook`: Stripe's webhook; Stripe delivers one request per event from a few addresses, so 300 per 5 minutes
 *   (1/s) is far above a shop's event rate and far below what a flood needs;
 * - `publicWrite`: POSTs to a route without a JWT (product analytics): a page sends a handful per visit;
 * - `writes`: every other POST/PATCH/DELETE under `/api/` (each is authenticated and also quota-limited per user);
 * - `api`: everything under `/api/`, the wizard's poll included (one GET every 2 s is 150 per 5 minutes);
 * - `site`: any request at all (the SPA's files are cached by the browser after the first visit).
 */
export const RATE_LIMITS = {
  webhook: 300,
  publicWrite: 300,
  writes: 600,
  api: 3000,
  site: 6000,
} as const;

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
 * The AWS WAF web ACL in front of CloudFront (scope `CLOUDFRONT`, which AWS accepts only in us-east-1): the AWS
 * managed common rule set (not on the webhook's signed bodies), known bad inputs and the Amazon IP reputation list, then per-IP rate-based rules — tighter
 * on the Stripe webhook and on public writes than on the authenticated API, and a ceiling for the whole site
 * ({@link RATE_LIMITS}). Blocked requests answer 403; every rule has CloudWatch metrics and sampled requests, and
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
