import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { stackOutput } from './naming';
import { alarmTopic, metricGroups, topicAlarms } from './topic-alarms';
import { Construct } from 'constructs';

/** Properties of {@link Alarms}. */
export interface AlarmsProps {
  /** Subscribed to the topic by e-mail when set (context `alarmEmail`); confirm the subscription mail. */
  email?: string;
  httpApi: apigw.HttpApi;
  stateMachine?: sfn.IStateMachine;
  functions: lambda.IFunction[];
}

/**
 * Alarms to one SNS topic: workflow executions failed or timed out, API 5xx responses, and Lambda throttles (summed
 * over the functions, ten per alarm: CloudWatch bills each metric of an alarm, about $0.10/month). Handler errors
 * already surface as API 5xx or workflow failures. Missing data is "not breaching": an idle stage stays green.
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = alarmTopic(this, 'Topic', { displayName: 'Headshot Studio alarms', email: props.email });

    const period = Duration.minutes(5);
    const add = topicAlarms(this, this.topic, this.alarms);

    if (props.stateMachine) {
      add('WorkflowExecutionsFailed', {
        metric: props.stateMachine.metricFailed({ period, statistic: 'Sum' }),
        threshold: 1,
        alarmDescription:
          'A generation workflow execution failed (its credits are refunded by the workflow; look at the execution).',
      });
      add('WorkflowExecutionsTimedOut', {
        metric: props.stateMachine.metricTimedOut({ period, statistic: 'Sum' }),
        threshold: 1,
        alarmDescription:
          'A generation workflow execution timed out: its reserved credits may not have been refunded.',
      });
    }
    add('Api5xx', {
      metric: props.httpApi.metricServerError({ period, statistic: 'Sum' }),
      threshold: 5,
      alarmDescription: 'The HTTP API answered 5 or more 5xx responses in 5 minutes.',
    });

    for (const { group, suffix } of metricGroups(props.functions)) {
      const sum = (metricOf: (fn: lambda.IFunction) => cloudwatch.IMetric, label: string) =>
        new cloudwatch.MathExpression({
          expression: 'SUM(METRICS())',
          label,
          period,
          usingMetrics: Object.fromEntries(group.map((fn, i) => [`m${i}`, metricOf(fn)])),
        });
      add(`LambdaThrottles${suffix}`, {
        metric: sum((fn) => fn.metricThrottles({ period, statistic: 'Sum' }), 'Throttles'),
        threshold: 1,
        alarmDescription:
          'Lambda throttled invocations of Headshot Studio functions (concurrency limit reached).',
      });
    }

    stackOutput(this, 'AlarmTopicArn', this.topic.topicArn);
  }
}
