import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../functions/common/metrics';
import { businessMetric } from './business-metrics';
import { providerCalendarAlarms } from './provider-calendar';
import { metricGroups, topicAlarms } from './topic-alarms';

/** Properties of {@link Operations}. */
export interface OperationsProps {
  topic: sns.ITopic;
  stage: string;
  table: ITableV2;
  httpApi: apigw.HttpApi;
  /** The API's access log group (JSON lines with `status` and `integrationLatency`). */
  accessLogs: logs.ILogGroup;
  stateMachine?: sfn.IStateMachine;
  /** Every function with its timeout, for the duration-near-timeout alarms. */
  functions: { name: string; fn: lambda.IFunction; timeoutSeconds: number }[];
  /** The analytics Firehose stream's name. */
  deliveryStreamName?: string;
  /** The execution-ended rule's dead-letter queue. */
  ruleDeadLetterQueue?: sqs.IQueue;
  /** Whether the stage sends mail through SES (the reputation alarms are the account's). */
  mail: boolean;
}

/**
 * Where each threshold comes from:
 * - SES reputation: AWS puts an account under review at a bounce rate of 5 % and a complaint rate of 0.1 % (and may
 *   pause sending at 10 % / 0.5 %): "Amazon SES sending review process FAQs",
 *   https://docs.aws.amazon.com/ses/latest/dg/faqs-enforcement.html, and the reputation metrics
 *   `Reputation.BounceRate` / `Reputation.ComplaintRate` (fractions),
 *   https://docs.aws.amazon.com/ses/latest/dg/reputationdashboard-cloudwatch-alarm.html. We alarm AT the review
 *   levels, the warning levels those pages name, so there is time to act before a pause.
 * - Duration near timeout: 90 % of the function's own timeout (one invocation is enough: the next one may time out).
 * - Account concurrency: 80 % of the Lambda concurrency quota (`SERVICE_QUOTA()` of the AWS/Usage metric), so the
 *   quota is raised before functions are throttled.
 * - API p99: 5 s for 15 minutes; API Gateway ends an integration at 30 s and the slowest route (photo checks, face
 *   models on cold start) answers in about 1-3 s, so 5 s sustained means something is stuck.
 * - DynamoDB and Step Functions: any throttle sustained over 10 minutes (isolated throttles are retried by the SDK
 *   and the workflow's Retry).
 * - Firehose: data older than 15 minutes in the stream (its buffer is 60 s).
 * - Provider failures: half the calls of 10 minutes failing on the provider's side (5xx, timeouts, unusable
 *   answers), with at least 5 calls.
 */
export const THRESHOLDS = {
  sesBounceRate: 0.05,
  sesComplaintRate: 0.001,
  durationOfTimeout: 0.9,
  concurrencyPercent: 80,
  apiP99Ms: 5_000,
  firehoseFreshnessSeconds: 900,
  providerFailurePercent: 50,
  /**
   * The share of provider calls the provider refused over an hour (10+ calls) that pages: each account's refusals are
   * bounded (docs/decisions/018-provider-refusals.md), so a rate this high is many accounts at once — abuse, or a
   * prompt the provider now blocks — while the provider watches our organisation's refusals.
   */
  providerRefusalPercent: 20,
} as const;

/**
 * The alarms for what issue 26 found unwatched, all to the stage's alarm topic: DynamoDB throttling, Step
 * Functions throttling (executions and the account's state-transition bucket), API Gateway throttling (429s the
 * gateway answered, not the per-user quotas' answers) and p99 latency, Lambda duration near timeout, the account's
 * Lambda concurrency against its quota, Firehose delivery, the execution-ended rule's dead-letter queue, the
 * provider's failure and refusal rates, and SES bounce and complaint rates. The CloudFront, WAF and billing metrics live in
 * us-east-1 (see ./edge-alarms.ts).
 */
export class Operations extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  /** Gateway-answered 429s per 5 minutes (a metric filter on the access log). */
  readonly apiThrottled: cloudwatch.Metric;
  /** Every 429 the API answered (gateway throttles and per-user quotas). */
  readonly api429: cloudwatch.Metric;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const alarm = topicAlarms(this, props.topic, this.alarms);

    const tableName = props.table.tableName;
    alarm('DynamoDbThrottles', {
      metric: new cloudwatch.MathExpression({
        expression: 'FILL(reads, 0) + FILL(writes, 0)',
        usingMetrics: {
          reads: tableMetric('ReadThrottleEvents', tableName, period),
          writes: tableMetric('WriteThrottleEvents', tableName, period),
        },
        period,
        label: 'DynamoDB throttle events',
      }),
      threshold: 1,
      alarmDescription:
        'The table throttled reads or writes for 10 minutes: a hot partition or a burst past on-demand limits. Look at CloudWatch Contributor Insights / the table metrics; the workflow retries throttled tasks.',
      evaluationPeriods: 2,
    });

    if (props.stateMachine) {
      alarm('StepFunctionsExecutionsThrottled', {
        metric: props.stateMachine.metric('ExecutionThrottled', { period, statistic: 'Sum' }),
        threshold: 1,
        alarmDescription:
          'Step Functions throttled the generation state machine (state transitions or StartExecution over the account quota): generations are delayed. Request a quota increase (Service Quotas → Step Functions).',
        evaluationPeriods: 2,
      });
    }
    alarm('StepFunctionsTransitionsThrottled', {
      metric: stateTransitionsThrottled(period),
      threshold: 1,
      alarmDescription:
        "The account's Step Functions state-transition bucket ran dry (ThrottledEvents of StateTransition) for 10 minutes: every workflow in the account slows down. Request a higher state-transition rate (Service Quotas).",
      evaluationPeriods: 2,
    });

    // A metric filter cannot add a constant dimension: the stage is in the namespace instead.
    const apiNamespace = `${METRICS_NAMESPACE}/${props.stage}`;
    const accessLogMetric = (metricName: string, pattern: string) => {
      new logs.MetricFilter(this, `${metricName}Filter`, {
        logGroup: props.accessLogs,
        filterPattern: logs.FilterPattern.literal(pattern),
        metricNamespace: apiNamespace,
        metricName,
        metricValue: '1',
      });
      return new cloudwatch.Metric({ namespace: apiNamespace, metricName, statistic: 'Sum', period });
    };
    // API Gateway's own throttle never calls the integration (integrationLatency "-"); a quota's 429 comes from a
    // handler and is an answer to one caller, not trouble.
    this.apiThrottled = accessLogMetric('ApiThrottled', '{ $.status = "429" && $.integrationLatency = "-" }');
    this.api429 = accessLogMetric('Api429', '{ $.status = "429" }');
    alarm('ApiThrottled', {
      metric: this.apiThrottled,
      threshold: 10,
      alarmDescription:
        'API Gateway answered 10 or more 429s itself (route or account throttle) in 5 minutes: callers are being turned away. Look at the access log (status 429, no integration latency) and raise ROUTE_THROTTLES in infrastructure/constructs/api.ts if the traffic is real.',
    });
    alarm('ApiLatencyP99', {
      metric: props.httpApi.metricLatency({ period, statistic: 'p99' }),
      threshold: THRESHOLDS.apiP99Ms,
      alarmDescription:
        'The API’s p99 latency has been 5 s or more for 15 minutes: look at the X-Ray traces of the slow route (DynamoDB, S3, Stripe subsegments) and the functions’ Duration.',
      evaluationPeriods: 3,
    });

    for (const { group, suffix } of metricGroups(props.functions)) {
      const usingMetrics = Object.fromEntries(
        group.map(({ fn }, i) => [`d${i}`, fn.metricDuration({ period, statistic: 'Maximum' })]),
      );
      const ratios = group.map(({ timeoutSeconds }, i) => `FILL(d${i}, 0) / ${timeoutSeconds * 1000}`);
      alarm(`LambdaDurationNearTimeout${suffix}`, {
        metric: new cloudwatch.MathExpression({
          expression: `MAX([${ratios.join(', ')}])`,
          usingMetrics,
          period,
          label: `Longest invocation, fraction of its timeout (${group.map((g) => g.name).join(', ')})`,
        }),
        threshold: THRESHOLDS.durationOfTimeout,
        alarmDescription: `An invocation of one of these functions ran for 90 % or more of its timeout (${group.map((g) => g.name).join(', ')}): the next one may time out. Look at its Duration and traces; raise its timeoutSeconds in functions/catalogue.ts or find the slow call.`,
      });
    }

    alarm('LambdaAccountConcurrency', {
      metric: new cloudwatch.MathExpression({
        expression: '100 * usage / SERVICE_QUOTA(usage)',
        usingMetrics: {
          usage: new cloudwatch.Metric({
            namespace: 'AWS/Usage',
            metricName: 'ResourceCount',
            dimensionsMap: {
              Service: 'Lambda',
              Resource: 'ConcurrentExecutions',
              Type: 'Resource',
              Class: 'None',
            },
            statistic: 'Maximum',
            period: Duration.minutes(1),
          }),
        },
        period: Duration.minutes(1),
        label: 'Lambda concurrency, % of the account quota',
      }),
      threshold: THRESHOLDS.concurrencyPercent,
      alarmDescription:
        'The account’s Lambda concurrency reached 80 % of its quota: functions will soon be throttled (every stage and app of the account shares it). Request more (Service Quotas → Lambda → Concurrent executions, L-B99A9384).',
      evaluationPeriods: 3,
    });

    if (props.deliveryStreamName) {
      alarm('FirehoseDeliveryStale', {
        metric: new cloudwatch.Metric({
          namespace: 'AWS/Firehose',
          metricName: 'DeliveryToS3.DataFreshness',
          dimensionsMap: { DeliveryStreamName: props.deliveryStreamName },
          statistic: 'Maximum',
          period,
        }),
        threshold: THRESHOLDS.firehoseFreshnessSeconds,
        alarmDescription:
          'Analytics events older than 15 minutes are still in the Firehose stream: delivery to S3 is failing (look at the stream’s error logs: the bucket policy or KMS key). Events are kept for 24 hours.',
      });
    }

    if (props.ruleDeadLetterQueue) {
      alarm('ExecutionEndedRuleDeadLetters', {
        metric: props.ruleDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period,
          statistic: 'Maximum',
        }),
        threshold: 1,
        alarmDescription:
          'EventBridge could not deliver an execution-ended event to the compensator after its retries (the event is in the rule’s dead-letter queue): the sweeper refunds the generation after its deadline; look at the message’s error attributes.',
      });
    }

    const calls = businessMetric('ProviderCalls', props.stage, { period: Duration.minutes(10) });
    const failures = businessMetric('ProviderFailures', props.stage, { period: Duration.minutes(10) });
    alarm('ProviderFailureRate', {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(FILL(calls, 0) >= 5, 100 * FILL(failures, 0) / calls, 0)',
        usingMetrics: { calls, failures },
        period: Duration.minutes(10),
        label: 'Provider calls failing on the provider side, %',
      }),
      threshold: THRESHOLDS.providerFailurePercent,
      alarmDescription:
        'Half or more of the image provider’s calls failed on its side (5xx, timeouts, unusable images) over 10 minutes: slots are being refunded. Check status.openai.com and the ProviderFailures log lines.',
    });

    const hour = Duration.hours(1);
    alarm('ProviderRefusalRate', {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(FILL(calls, 0) >= 10, 100 * FILL(refusals, 0) / calls, 0)',
        usingMetrics: {
          calls: businessMetric('ProviderCalls', props.stage, { period: hour }),
          refusals: businessMetric('ProviderRefusals', props.stage, { period: hour }),
        },
        period: hour,
        label: 'Provider calls refused by the provider, %',
      }),
      threshold: THRESHOLDS.providerRefusalPercent,
      alarmDescription:
        'A fifth or more of the image provider’s calls were refused by it (e.g. OpenAI’s moderation_blocked) over an hour: many accounts are sending what the provider blocks. Each refusal is logged with its generation; the refusers are capped (docs/decisions/018-provider-refusals.md), but the provider counts our organisation’s refusals too.',
    });

    providerCalendarAlarms(alarm, props.stage);

    if (props.mail) {
      const reputation = (metricName: string) =>
        new cloudwatch.Metric({
          namespace: 'AWS/SES',
          metricName,
          statistic: 'Maximum',
          period: Duration.hours(1),
        });
      alarm('SesBounceRate', {
        metric: reputation('Reputation.BounceRate'),
        threshold: THRESHOLDS.sesBounceRate,
        alarmDescription:
          'The account’s SES bounce rate reached 5 %: AWS reviews the account at this level and may pause sending at 10 % (sign-up codes included). Look at the Bounce events of the configuration set; stop mailing bounced addresses.',
      });
      alarm('SesComplaintRate', {
        metric: reputation('Reputation.ComplaintRate'),
        threshold: THRESHOLDS.sesComplaintRate,
        alarmDescription:
          'The account’s SES complaint rate reached 0.1 %: AWS reviews the account at this level and may pause sending at 0.5 %. Check who marks the mail as spam (Complaint events) and make opting out easy.',
      });
    }
  }
}

/** A table metric (on-demand tables report throttles per table). */
function tableMetric(metricName: string, tableName: string, period: Duration): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: tableName },
    statistic: 'Sum',
    period,
  });
}

/**
 * The account's throttled Step Functions state transitions (AWS/States `ThrottledEvents` of `StateTransition`),
 * summed per `period`: the bucket every state machine of the account draws from.
 */
export function stateTransitionsThrottled(period: Duration, label?: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/States',
    metricName: 'ThrottledEvents',
    dimensionsMap: { ServiceMetric: 'StateTransition' },
    statistic: 'Sum',
    period,
    label,
  });
}
