import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/**
 * A topic the alarms of a region notify (an alarm action must be a topic of the alarm's region), refusing requests
 * without TLS; `email` (context `alarmEmail`) is subscribed when given and must confirm the subscription mail.
 *
 * `enforceSSL` gives the topic a policy of its own, which replaces SNS's default one, so nothing may publish to it but
 * what that policy allows: the alarms' service is allowed to publish for this account's alarms of this region only
 * (`aws:SourceAccount`, `aws:SourceArn`: the confused-deputy guard of
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/AlarmThatSendsEmail.html). Without it every
 * alarm action fails with "not authorized to perform: SNS:Publish" (aws-solutions/automated-security-response-on-aws
 * issue #43).
 */
export function alarmTopic(
  scope: Construct,
  id: string,
  options: { displayName: string; email?: string },
): sns.Topic {
  const topic = new sns.Topic(scope, id, { displayName: options.displayName, enforceSSL: true });
  const stack = Stack.of(topic);
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'AllowCloudWatchAlarmsToPublish',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: {
          'aws:SourceArn': stack.formatArn({
            service: 'cloudwatch',
            resource: 'alarm',
            resourceName: '*',
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        },
      },
    }),
  );
  if (options.email) topic.addSubscription(new subscriptions.EmailSubscription(options.email));
  return topic;
}

/** One alarm: what it watches, when it fires, and what the e-mail tells the operator. */
export interface AlarmSpec {
  metric: cloudwatch.IMetric;
  /** It fires when the metric is at or above this value. */
  threshold: number;
  /** Periods in a row at or above the threshold before it fires. Default 1. */
  evaluationPeriods?: number;
  /** What it means and what to do (docs/operations.md, "Alarms", says the same at more length). */
  alarmDescription: string;
}

/**
 * Makes alarms the way every alarm of the stage is made: firing at or above its threshold, missing data "not
 * breaching" (an idle stage stays green), notifying `topic` (the stage's alarm topic, or the edge stack's).
 *
 * @param into where each new alarm is added (the construct's `alarms`, which the dashboard's status widget lists)
 * @returns a function that adds one alarm with that id to `scope`
 */
export function topicAlarms(
  scope: Construct,
  topic: sns.ITopic,
  into: cloudwatch.Alarm[],
): (id: string, spec: AlarmSpec) => cloudwatch.Alarm {
  const action = new actions.SnsAction(topic);
  return (id, spec) => {
    const alarm = new cloudwatch.Alarm(scope, id, {
      ...spec,
      evaluationPeriods: spec.evaluationPeriods ?? 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(action);
    into.push(alarm);
    return alarm;
  };
}

/** CloudWatch metric math takes at most 10 metrics per alarm: a list of functions is watched in groups this size. */
export const METRICS_PER_ALARM = 10;

/**
 * `items` cut into groups of {@link METRICS_PER_ALARM}, each with the suffix of its alarm's id: `1`, `2`, … when
 * there is more than one group, none when one alarm covers them all.
 */
export function metricGroups<T>(items: readonly T[]): { group: T[]; suffix: string }[] {
  const groups: { group: T[]; suffix: string }[] = [];
  for (let start = 0; start < items.length; start += METRICS_PER_ALARM) {
    groups.push({
      group: items.slice(start, start + METRICS_PER_ALARM),
      suffix: items.length > METRICS_PER_ALARM ? String(start / METRICS_PER_ALARM + 1) : '',
    });
  }
  return groups;
}
