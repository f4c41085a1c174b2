import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { businessMetric, businessSearch } from './business-metrics';
import { cloudFrontMetric } from './edge-alarms';
import { MAIL_EVENT_DIMENSION } from './mail-events';
import { stateTransitionsThrottled, type Operations } from './operations';
import { wafBlockedRequests } from './waf';

/** Properties of {@link Dashboard}. */
export interface DashboardProps {
  stage: string;
  tableName: string;
  httpApi: apigw.HttpApi;
  operations: Operations;
  stateMachine?: sfn.IStateMachine;
  functions: { name: string; fn: lambda.IFunction; timeoutSeconds: number }[];
  distributionId: string;
  /** The CloudFront web ACL's name, when this stack knows it. */
  webAclName?: string;
  /** Requests the user pool's web ACL blocked (UserPoolFirewall.blockedRequests), beside the CloudFront web ACL's. */
  userPoolBlocks?: cloudwatch.IMetric;
  mailConfigurationSet?: string;
  /** Every alarm of the stage, for the alarm status widget. */
  alarms: cloudwatch.IAlarm[];
}

/** Where CloudFront, the CloudFront web ACL and AWS/Billing publish their metrics, whatever the app's region. */
const US_EAST_1 = 'us-east-1';

/**
 * The stage's CloudWatch dashboard `HeadshotStudio-<stage>` (issue 26 item 1), one row per question an operator
 * asks: are customers served (generations started, delivered, credits refunded by reason, the queue, the
 * provider's latency and 429 rate), is the API healthy (p99, 4xx, 429, 5xx), are the functions (errors,
 * unexpected errors, throttles, longest invocation against its timeout), are the data and workflow services
 * throttling, is mail landing (bounce and complaint rates), is the edge healthy, and what AWS costs per day. Every
 * business metric is read for this stage only. CloudFront, WAF and billing widgets read us-east-1, where AWS
 * publishes those metrics (a dashboard, unlike an alarm, may show any region). Billing is the account's, not the
 * stage's: AWS/Billing has no per-stage dimension (filter Cost Explorer by the `stage` cost allocation tag for that),
 * and it exists only once "Receive Billing Alerts" is on in the account's billing preferences.
 */
export class Dashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { stage } = props;
    const period = Duration.minutes(5);
    const hour = Duration.hours(1);
    const graph = (
      title: string,
      left: cloudwatch.IMetric[],
      options: Partial<cloudwatch.GraphWidgetProps> = {},
    ) => new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...options });
    const sumOf = (label: string, metrics: cloudwatch.IMetric[], expression = 'SUM(METRICS())') =>
      new cloudwatch.MathExpression({
        expression,
        usingMetrics: Object.fromEntries(metrics.map((m, i) => [`m${i}`, m])),
        period,
        label,
      });
    const fns = props.functions;

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `HeadshotStudio-${stage}`,
      defaultInterval: Duration.days(1),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# Headshot Studio — ${stage}\nWhat each alarm means and what to do: docs/operations.md, "Alarms".`,
        width: 24,
        height: 1,
      }),
    );
    this.dashboard.addWidgets(
      graph(
        'Generations',
        [
          businessMetric('GenerationsStarted', stage, { period: hour, label: 'started' }),
          businessMetric('GenerationsDelivered', stage, { period: hour, label: 'delivered (1+ headshot)' }),
        ],
        { statistic: 'Sum' },
      ),
      graph('Credits refunded, by reason', [
        businessSearch('CreditsRefunded', stage, 'reason', { period: hour }),
      ]),
      graph(
        'Queue: length and wait (p95)',
        [
          businessMetric('QueuePosition', stage, {
            statistic: 'Maximum',
            label: 'generations in line (max)',
          }),
        ],
        {
          right: [
            businessMetric('QueueWait', stage, { statistic: 'p95', label: 'wait until admitted, p95 (ms)' }),
          ],
        },
      ),
    );
    const calls = businessMetric('ProviderCalls', stage);
    this.dashboard.addWidgets(
      graph(
        'Provider latency (ms)',
        [
          businessMetric('ProviderLatency', stage, { statistic: 'p50', label: 'p50' }),
          businessMetric('ProviderLatency', stage, { statistic: 'p95', label: 'p95' }),
        ],
        { right: [calls] },
      ),
      graph('Provider 429 and failure rate (%)', [
        new cloudwatch.MathExpression({
          expression: 'IF(calls > 0, 100 * FILL(throttled, 0) / calls, 0)',
          usingMetrics: { calls, throttled: businessMetric('ProviderThrottled', stage) },
          period,
          label: '429 rate',
        }),
        new cloudwatch.MathExpression({
          expression: 'IF(calls > 0, 100 * FILL(failures, 0) / calls, 0)',
          usingMetrics: { calls, failures: businessMetric('ProviderFailures', stage) },
          period,
          label: 'failure rate (5xx, timeouts, unusable)',
        }),
      ]),
      graph('Money', [
        businessMetric('PurchasesCredited', stage, { period: hour }),
        businessMetric('PurchasesRefunded', stage, { period: hour }),
        businessMetric('DisputesCreated', stage, { period: hour }),
        businessMetric('PaidNotCredited', stage, { period: hour }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('API p99 latency (ms)', [props.httpApi.metricLatency({ period, statistic: 'p99' })]),
      graph('API answers', [
        props.httpApi.metricClientError({ period, statistic: 'Sum', label: '4xx' }),
        props.operations.api429.with({ label: '429 (all)' }),
        props.operations.apiThrottled.with({ label: '429 (gateway throttle)' }),
        props.httpApi.metricServerError({ period, statistic: 'Sum', label: '5xx' }),
      ]),
      graph('API requests', [props.httpApi.metricCount({ period, statistic: 'Sum' })]),
    );
    this.dashboard.addWidgets(
      graph('Lambda errors (all functions)', [
        sumOf(
          'errors',
          fns.map(({ fn }) => fn.metricErrors({ period, statistic: 'Sum' })),
        ),
        // The alarms' measure (reliability.ts unexpectedErrors), summed: Errors minus the outcomes the handlers counted.
        sumOf(
          'unexpected errors',
          fns.map(({ fn }) => fn.metricErrors({ period, statistic: 'Sum' })),
          `SUM(METRICS()) - FILL(SUM(${businessSearch('ExpectedErrors', stage, 'function').expression}), 0)`,
        ),
      ]),
      graph('Lambda throttles', [
        sumOf(
          'throttles',
          fns.map(({ fn }) => fn.metricThrottles({ period, statistic: 'Sum' })),
        ),
      ]),
      graph(
        'Longest invocation, % of its timeout',
        [
          new cloudwatch.MathExpression({
            expression: `MAX([${fns.map(({ timeoutSeconds }, i) => `100 * FILL(d${i}, 0) / ${timeoutSeconds * 1000}`).join(', ')}])`,
            usingMetrics: Object.fromEntries(
              fns.map(({ fn }, i) => [`d${i}`, fn.metricDuration({ period, statistic: 'Maximum' })]),
            ),
            period,
            label: 'max over functions',
          }),
        ],
        { leftAnnotations: [{ value: 90, label: 'alarm', color: cloudwatch.Color.RED }] },
      ),
    );
    const dynamo = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.tableName },
        statistic: 'Sum',
        period,
      });
    this.dashboard.addWidgets(
      graph('DynamoDB throttles', [dynamo('ReadThrottleEvents'), dynamo('WriteThrottleEvents')]),
      graph('Step Functions', [
        ...(props.stateMachine
          ? [
              props.stateMachine.metricFailed({ period, statistic: 'Sum' }),
              props.stateMachine.metricTimedOut({ period, statistic: 'Sum' }),
              props.stateMachine.metric('ExecutionThrottled', {
                period,
                statistic: 'Sum',
                label: 'throttled',
              }),
            ]
          : []),
        stateTransitionsThrottled(period, 'state transitions throttled (account)'),
      ]),
      graph('SES bounce and complaint rates (%)', mailRates(props.mailConfigurationSet), {
        leftAnnotations: [
          { value: 5, label: 'bounce: review at 5 %', color: cloudwatch.Color.ORANGE },
          { value: 0.1, label: 'complaint: review at 0.1 %', color: cloudwatch.Color.RED },
        ],
      }),
    );
    this.dashboard.addWidgets(
      graph(
        'CloudFront 5xx rate (%) and WAF blocks',
        [cloudFrontMetric('5xxErrorRate', props.distributionId, 'Average', US_EAST_1)],
        {
          right: [
            ...(props.webAclName ? [wafBlockedRequests(props.webAclName, { readFrom: US_EAST_1 })] : []),
            ...(props.userPoolBlocks ? [props.userPoolBlocks] : []),
          ],
        },
      ),
      graph(
        'AWS spend per day (USD, account)',
        [
          new cloudwatch.MathExpression({
            // EstimatedCharges is the month to date: a day's spend is its rise; on the 1st it starts again from 0.
            expression: 'IF(DIFF(charges) >= 0, DIFF(charges), charges)',
            usingMetrics: {
              charges: new cloudwatch.Metric({
                namespace: 'AWS/Billing',
                metricName: 'EstimatedCharges',
                dimensionsMap: { Currency: 'USD' },
                statistic: 'Maximum',
                period: Duration.days(1),
                region: US_EAST_1,
              }),
            },
            period: Duration.days(1),
            label: 'spend that day',
          }),
        ],
        { period: Duration.days(1) },
      ),
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 8, height: 6 }),
    );
  }
}

/** The stage's bounce and complaint rates from its configuration set's events, and the account's reputation. */
function mailRates(configurationSet: string | undefined): cloudwatch.IMetric[] {
  const hour = Duration.hours(1);
  // Every metric of one graph needs its own id: each expression names its metrics uniquely.
  const reputation = (metricName: string, id: string, label: string) =>
    new cloudwatch.MathExpression({
      expression: `100 * ${id}`,
      usingMetrics: {
        [id]: new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: hour }),
      },
      period: hour,
      label,
    });
  const account = [
    reputation('Reputation.BounceRate', 'accountBounce', 'bounce rate (account reputation)'),
    reputation('Reputation.ComplaintRate', 'accountComplaint', 'complaint rate (account reputation)'),
  ];
  if (!configurationSet) return account;
  const event = (metricName: string) =>
    new cloudwatch.Metric({
      namespace: 'AWS/SES',
      metricName,
      dimensionsMap: { [MAIL_EVENT_DIMENSION]: configurationSet },
      statistic: 'Sum',
      period: hour,
    });
  const rate = (metricName: string, id: string, label: string) =>
    new cloudwatch.MathExpression({
      expression: `IF(sends > 0, 100 * FILL(${id}, 0) / sends, 0)`,
      usingMetrics: { sends: event('Send'), [id]: event(metricName) },
      period: hour,
      label,
    });
  return [
    rate('Bounce', 'bounces', 'bounce rate (this stage)'),
    rate('Complaint', 'complaints', 'complaint rate (this stage)'),
    ...account,
  ];
}
