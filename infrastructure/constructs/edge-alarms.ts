import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { topicAlarms } from './topic-alarms';
import { wafBlockedRequests } from './waf';

/** Properties of {@link EdgeAlarms}. */
export interface EdgeAlarmsProps {
  topic: sns.ITopic;
  /** The CloudFront distribution, when it is in this stack's region (us-east-1). */
  distributionId?: string;
  /** The CloudFront web ACL's name (its `WebACL` metric dimension), when it is in this stack's region. */
  webAclName?: string;
}

/** Thresholds of {@link EdgeAlarms}, with why. */
export const EDGE_THRESHOLDS = {
  /**
   * 5xx answers as a % of CloudFront's requests, sustained 10 minutes: origin failures (the API's 5xx alarm already
   * pages on its own; this one catches the S3 origin, CloudFront itself, and the API seen from outside).
   */
  cloudFront5xxPercent: 5,
  /**
   * Requests the web ACL blocked per 5 minutes, sustained 10 minutes: blocking single abusers is the WAF working
   * (the rate rules block one IP past 300-6,000 requests per 5 minutes), a thousand blocks twice in a row is an
   * attack in progress or a rule blocking real customers — either way someone should look at the WAF logs.
   */
  wafBlockedPer5Minutes: 1_000,
} as const;

/**
 * Alarms on metrics AWS publishes only in us-east-1 — CloudFront's (a global service) and the CloudFront-scoped
 * web ACL's (AWS/WAFV2, dimensions `WebACL` and `Rule=ALL`, no `Region`): an alarm can only watch metrics of its own
 * region, so these live in the stack that is in us-east-1 (the app stack when the app is deployed there; otherwise
 * the edge stack, with its own topic), and each alarms only on what that stack can name.
 */
export class EdgeAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: EdgeAlarmsProps) {
    super(scope, id);
    const add = topicAlarms(this, props.topic, this.alarms);
    if (props.distributionId) {
      add('CloudFront5xxRate', {
        metric: cloudFrontMetric('5xxErrorRate', props.distributionId, 'Average'),
        threshold: EDGE_THRESHOLDS.cloudFront5xxPercent,
        alarmDescription:
          '5 % or more of CloudFront’s answers were 5xx for 10 minutes: the site or the API is failing for visitors. Look at the API 5xx alarm and logs first, then CloudFront’s error metrics by origin.',
        evaluationPeriods: 2,
      });
    }
    if (props.webAclName) {
      add('WafBlockedRequests', {
        metric: wafBlockedRequests(props.webAclName),
        threshold: EDGE_THRESHOLDS.wafBlockedPer5Minutes,
        alarmDescription:
          'The web ACL blocked 1,000 or more requests per 5 minutes for 10 minutes: an attack in progress, or a rule blocking customers. Look at the WAF log group (aws-waf-logs-…, us-east-1): which rule, which IPs.',
        evaluationPeriods: 2,
      });
    }
  }
}

/**
 * A CloudFront distribution metric (`Region=Global`). AWS publishes it in us-east-1: `region` names that for a
 * dashboard elsewhere (an alarm must be in us-east-1 itself and leaves it unset).
 */
export function cloudFrontMetric(
  metricName: string,
  distributionId: string,
  statistic: string,
  region?: string,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/CloudFront',
    metricName,
    dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
    statistic,
    period: Duration.minutes(5),
    region,
  });
}
