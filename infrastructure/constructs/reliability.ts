import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BusinessMetric } from '../../functions/common/metrics';
import { ratePeriodMs } from '../local/stand-ins/eventbridge-scheduler/scheduler';
import { businessMetric } from './business-metrics';
import { EXECUTION_ENDED_RULE } from './execution-ended-rule';
import { acknowledge, acknowledgeWildcardResources } from './nag';
import { stackOutput } from './naming';
import { topicAlarms } from './topic-alarms';

/** Properties of {@link Reliability}. */
export interface ReliabilityProps {
  topic: sns.ITopic;
  /** The stage: the business metrics' `stage` dimension the alarms read (a dev stage never trips prod's). */
  stage: string;
  /** Catalogue functions with an EventBridge Scheduler rate (`rate(5 minutes)`): the generation sweeper. */
  scheduled: { name: string; fn: lambda.IFunction; schedule: string }[];
  /** The execution-ended compensator (run asynchronously by EventBridge): its failures go to a dead-letter queue. */
  compensator?: lambda.IFunction;
  /** Every function that is not an API handler (API errors surface as 5xx): one Errors alarm each. */
  nonApiFunctions: { name: string; fn: lambda.IFunction }[];
}

/**
 * Nothing stranded, every failure visible (docs/architecture.md §8 "Money"):
 * - an EventBridge Scheduler schedule per scheduled function (the sweeper, every 5 minutes, 2 retries);
 * - the compensator's failed asynchronous invocations (after Lambda's 2 retries) land in an SQS dead-letter queue
 *   (on-failure destination, 14 days), with an alarm as soon as one message is there;
 * - an alarm per non-API function on its unexpected errors: Lambda `Errors` minus the `ExpectedErrors` the handler
 *   counted (functions/common/expected-errors.ts), so a customer's unusable photos or a likeness rejection never
 *   page, while timeouts, crashes and every other error do;
 * - business alarms: a paid session not credited, any dispute, a reversal larger than the balance, a ticket of the
 *   provider queue set aside, and a refund ratio (refunds ÷ purchases over a day) of 10 % or more.
 */
export class Reliability extends Construct {
  readonly deadLetterQueue?: sqs.Queue;
  readonly schedules: scheduler.Schedule[] = [];
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ReliabilityProps) {
    super(scope, id);
    const alarm = topicAlarms(this, props.topic, this.alarms);

    const schedulerRole = props.scheduled.length
      ? new iam.Role(this, 'SchedulerRole', {
          assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
          description: 'EventBridge Scheduler invoking the scheduled functions',
        })
      : undefined;
    for (const { name, fn, schedule } of props.scheduled) {
      if (schedulerRole) {
        acknowledgeWildcardResources(
          schedulerRole,
          [`${fn.functionArn}:*`],
          'LambdaInvoke grants the function and its versions/aliases (`:*`); it is this one function.',
        );
      }
      this.schedules.push(
        new scheduler.Schedule(this, `Schedule-${name}`, {
          description: `Invokes ${name} (${schedule})`,
          schedule: scheduler.ScheduleExpression.rate(Duration.millis(ratePeriodMs(schedule))),
          target: new targets.LambdaInvoke(fn, {
            input: scheduler.ScheduleTargetInput.fromObject({}),
            retryAttempts: 2,
            maxEventAge: Duration.minutes(5),
            role: schedulerRole,
          }),
        }),
      );
    }

    if (props.compensator) {
      this.deadLetterQueue = new sqs.Queue(this, 'CompensatorDeadLetters', {
        retentionPeriod: Duration.days(14),
        enforceSSL: true,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
      });
      acknowledge(
        this.deadLetterQueue,
        'AwsSolutions-SQS3',
        'This queue is itself the dead-letter (on-failure) destination of the compensator.',
      );
      // The same settings the local Lambda stand-in applies to the compensator's runs (execution-ended-rule.ts).
      props.compensator.configureAsyncInvoke({
        retryAttempts: EXECUTION_ENDED_RULE.asyncInvoke.retryAttempts,
        maxEventAge: Duration.seconds(EXECUTION_ENDED_RULE.asyncInvoke.maxEventAgeSeconds),
        onFailure: new destinations.SqsDestination(this.deadLetterQueue),
      });
      alarm('CompensatorDeadLettersVisible', {
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 1,
        alarmDescription:
          'The execution-ended compensator failed 3 times for an event (it is in the dead-letter queue): the sweeper will refund the generation after its deadline; look at the message.',
      });
      stackOutput(this, 'CompensatorDeadLetterQueueUrl', this.deadLetterQueue.queueUrl);
    }

    for (const { name, fn } of props.nonApiFunctions) {
      alarm(`Errors-${name}`, {
        metric: unexpectedErrors(fn, props.stage),
        threshold: 1,
        alarmDescription: `Function ${name} failed unexpectedly (an error that is not a workflow outcome, a timeout or a crash): look at its log group for ERROR lines and the X-Ray trace.`,
      });
    }

    const business = (name: BusinessMetric, period = Duration.minutes(5)) =>
      businessMetric(name, props.stage, { period });
    alarm('PaidNotCredited', {
      metric: business('PaidNotCredited'),
      threshold: 1,
      alarmDescription:
        'A paid Checkout Session did not match its pending purchase and was NOT credited: a customer paid for nothing. Look at the log and credit by hand.',
    });
    alarm('Disputes', {
      metric: business('DisputesCreated'),
      threshold: 1,
      alarmDescription: 'A payment was disputed: its credits were taken back; answer the dispute in Stripe.',
    });
    alarm('ReversalShortfalls', {
      metric: business('ReversalShortfalls'),
      threshold: 1,
      alarmDescription: 'A refund or dispute was larger than the balance left: the account was flagged.',
    });
    alarm('ProviderMisconfigured', {
      metric: business('ProviderMisconfigured'),
      threshold: 1,
      alarmDescription:
        'A headshot slot failed (refunded) because OpenAI cannot be called as configured: no API key (put it into its secret), or OpenAI refused the configuration (the log line and the metric name the model, param and code; run npm run check:provider). docs/deploy.md, "Production checklist".',
    });
    alarm('MailRefused', {
      metric: business('MailRefused'),
      threshold: 1,
      alarmDescription:
        'SES refused a "headshots ready" e-mail for the account\'s setup (MessageRejected: the sender is not a verified identity, or SES is still in the sandbox): verify the identity or request production access (docs/deploy.md, "E-mail (Amazon SES)").',
    });
    alarm('QueueTicketsSetAside', {
      metric: business('QueueTicketsSetAside'),
      threshold: 1,
      alarmDescription:
        "The provider queue's dispatcher set aside a ticket DynamoDB refused to admit: its slot was refunded and the line moved on, but it is a bug. The dispatcher's ERROR line names the lease and what the table said; the ticket is kept 14 days under <queue>#ASIDE (docs/operations.md).",
    });
    const day = Duration.days(1);
    alarm('RefundRatio', {
      metric: new cloudwatch.MathExpression({
        expression: 'IF(purchases > 0, 100 * refunds / purchases, 0)',
        usingMetrics: {
          refunds: business('PurchasesRefunded', day),
          purchases: business('PurchasesCredited', day),
        },
        period: day,
        label: 'Refunded purchases, % of purchases (1 day)',
      }),
      threshold: 10,
      alarmDescription: '10 % or more of the purchases of the last day were refunded.',
    });
  }
}

/**
 * A function's unexpected errors per 5 minutes: Lambda's `Errors` minus the `ExpectedErrors` its handler counted,
 * both timestamped at the invocation's start (functions/common/expected-errors.ts).
 */
export function unexpectedErrors(fn: lambda.IFunction, stage: string): cloudwatch.MathExpression {
  const period = Duration.minutes(5);
  return new cloudwatch.MathExpression({
    expression: 'errors - FILL(expected, 0)',
    usingMetrics: {
      errors: fn.metricErrors({ period, statistic: 'Sum' }),
      expected: businessMetric('ExpectedErrors', stage, {
        period,
        dimensions: { function: fn.functionName },
      }),
    },
    period,
    label: 'Unexpected errors',
  });
}
