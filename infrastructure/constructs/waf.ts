import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/*
 * The pieces both web ACLs are built from (./firewall.ts in front of CloudFront, ./user-pool-firewall.ts on the
 * user pool): statements, rules, metrics and the log of what they block. Each rule's metric name is
 * `<web ACL name>-<rule name>` and the web ACL's own is its name, so an operator finds a rule's metrics by the web
 * ACL's name (AWS/WAFV2 dimensions `WebACL` and `Rule`: https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html).
 */

type Statement = wafv2.CfnWebACL.StatementProperty;
type Rule = wafv2.CfnWebACL.RuleProperty;

/** Matches the field as it is (no lower-casing or decoding first). */
export const NO_TRANSFORM = [{ priority: 0, type: 'NONE' }];

/**
 * Matches requests whose `field` (the URI path, the method, one header, …) equals, starts with, … `searchString`,
 * as it is ({@link NO_TRANSFORM}).
 */
export function byteMatch(
  field: wafv2.CfnWebACL.FieldToMatchProperty,
  positionalConstraint: 'EXACTLY' | 'STARTS_WITH' | 'ENDS_WITH' | 'CONTAINS' | 'CONTAINS_WORD',
  searchString: string,
): Statement {
  return {
    byteMatchStatement: {
      fieldToMatch: field,
      positionalConstraint,
      searchString,
      textTransformations: NO_TRANSFORM,
    },
  };
}

/** The one statement, or an OR of several (WAF refuses an OR of a single statement). */
export function anyOf(statements: Statement[]): Statement {
  return statements.length === 1 ? statements[0]! : { orStatement: { statements } };
}

/**
 * The visibility of the web ACL `webAclName` (no `rule`) or of one of its rules: CloudWatch metrics and sampled
 * requests on, the metric named as the module comment says.
 */
export function visibility(webAclName: string, rule?: string): wafv2.CfnWebACL.VisibilityConfigProperty {
  return {
    cloudWatchMetricsEnabled: true,
    metricName: rule === undefined ? webAclName : `${webAclName}-${rule}`,
    sampledRequestsEnabled: true,
  };
}

/**
 * What a rate-based rule counts requests by (WAF's aggregation keys,
 * https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-aggregation-options.html):
 * - `ip`: the source IP;
 * - `asn`: the autonomous system (network operator) of the source IP, so many addresses of one network share one
 *   count; an address WAF cannot map counts as ASN 0;
 * - `{ header }`: one request header's value as it is (a request without it is not counted by the rule).
 */
export type RateKey = 'ip' | 'asn' | { header: string };

/** The statement fields of {@link RateKey}. */
function aggregation(key: RateKey): Partial<wafv2.CfnWebACL.RateBasedStatementProperty> {
  if (key === 'ip') return { aggregateKeyType: 'IP' };
  if (key === 'asn') return { aggregateKeyType: 'CUSTOM_KEYS', customKeys: [{ asn: {} }] };
  return {
    aggregateKeyType: 'CUSTOM_KEYS',
    customKeys: [{ header: { name: key.header, textTransformations: NO_TRANSFORM } }],
  };
}

/**
 * A rule that blocks a key ({@link RateKey}: a source IP, a network, a header's value) while it sends more than
 * `limit` requests in `windowSeconds` (default 300; WAF takes 60, 120, 300 or 600, and a limit of at least 10),
 * counting only the requests `scopeDown` matches when given. Blocked requests answer `blockStatus` (WAF's default
 * 403 when unset; with a `Retry-After` of the window when set, e.g. 429). Its name is `rate-<name>`.
 */
export function rateRule(options: {
  webAclName: string;
  priority: number;
  name: string;
  limit: number;
  key?: RateKey;
  windowSeconds?: 60 | 120 | 300 | 600;
  scopeDown?: Statement;
  blockStatus?: number;
}): Rule {
  const name = `rate-${options.name}`;
  const windowSeconds = options.windowSeconds ?? 300;
  const customResponse =
    options.blockStatus === undefined
      ? undefined
      : {
          responseCode: options.blockStatus,
          responseHeaders: [{ name: 'retry-after', value: String(windowSeconds) }],
        };
  return {
    name,
    priority: options.priority,
    action: { block: customResponse ? { customResponse } : {} },
    statement: {
      rateBasedStatement: {
        limit: options.limit,
        evaluationWindowSec: windowSeconds,
        ...aggregation(options.key ?? 'ip'),
        ...(options.scopeDown ? { scopeDownStatement: options.scopeDown } : {}),
      } as wafv2.CfnWebACL.RateBasedStatementProperty,
    },
    visibilityConfig: visibility(options.webAclName, name),
  };
}

/**
 * A rule that blocks a source IP while it sends more than `limit` requests in 5 minutes ({@link rateRule} keyed by
 * IP), counting only the requests `scopeDown` matches when given. Its name is `rate-<name>`.
 */
export function perIpRateRule(options: {
  webAclName: string;
  priority: number;
  name: string;
  limit: number;
  scopeDown?: Statement;
}): Rule {
  return rateRule(options);
}

/**
 * A rule that runs an AWS managed rule group (`name`, vendor AWS) with its own actions, on the requests `scopeDown`
 * matches when given.
 */
export function managedRuleGroupRule(options: {
  webAclName: string;
  priority: number;
  name: string;
  scopeDown?: Statement;
}): Rule {
  return {
    name: options.name,
    priority: options.priority,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: options.name,
        ...(options.scopeDown ? { scopeDownStatement: options.scopeDown } : {}),
      },
    },
    visibilityConfig: visibility(options.webAclName, options.name),
  };
}

/**
 * Logs every request a rule of `webAcl` blocked or counted to the log group `aws-waf-logs-<webAclName>` (WAF
 * requires the prefix), with `redactedHeaders` redacted; allowed requests are dropped. Adds the log group (`Logs`)
 * and the logging configuration (`Logging`) to `scope`, the web ACL's construct.
 */
export function logBlockedRequests(
  scope: Construct,
  options: {
    webAcl: wafv2.CfnWebACL;
    webAclName: string;
    retention: logs.RetentionDays;
    redactedHeaders?: readonly string[];
  },
): logs.LogGroup {
  const logGroup = new logs.LogGroup(scope, 'Logs', {
    logGroupName: `aws-waf-logs-${options.webAclName}`,
    retention: options.retention,
    // WAF needs a fixed name (its prefix); a retained group would make the next deploy after a destroy fail on it.
    removalPolicy: RemovalPolicy.DESTROY,
  });
  new wafv2.CfnLoggingConfiguration(scope, 'Logging', {
    resourceArn: options.webAcl.attrArn,
    // WAF wants the log group's ARN without the `:*` suffix `logGroupArn` carries.
    logDestinationConfigs: [
      Stack.of(scope).formatArn({
        service: 'logs',
        resource: 'log-group',
        resourceName: logGroup.logGroupName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    ],
    redactedFields: options.redactedHeaders?.map((name) => ({ singleHeader: { Name: name } })),
    loggingFilter: {
      DefaultBehavior: 'DROP',
      Filters: [
        {
          Behavior: 'KEEP',
          Requirement: 'MEETS_ANY',
          Conditions: ['BLOCK', 'COUNT'].map((Action) => ({ ActionCondition: { Action } })),
        },
      ],
    },
  });
  return logGroup;
}

/**
 * Requests a web ACL blocked (AWS/WAFV2 `BlockedRequests`), summed per `period` (default 5 minutes).
 *
 * @param options.rule one rule's name (`rate-signUp`); every rule (`Rule=ALL`) when unset
 * @param options.webAclRegion a REGIONAL web ACL's region, its metrics' `Region` dimension; unset for a CLOUDFRONT
 *   one, whose metrics AWS publishes in us-east-1 with no `Region`
 * @param options.readFrom the region CloudWatch reads the metric in, for a dashboard in another region (an alarm
 *   must be in the metric's region and leaves it unset)
 */
export function wafBlockedRequests(
  webAclName: string,
  options: {
    rule?: string;
    webAclRegion?: string;
    readFrom?: string;
    period?: Duration;
    label?: string;
  } = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/WAFV2',
    metricName: 'BlockedRequests',
    dimensionsMap: {
      WebACL: webAclName,
      ...(options.webAclRegion === undefined ? {} : { Region: options.webAclRegion }),
      Rule: options.rule === undefined ? 'ALL' : `${webAclName}-${options.rule}`,
    },
    statistic: 'Sum',
    period: options.period ?? Duration.minutes(5),
    region: options.readFrom,
    label: options.label,
  });
}
