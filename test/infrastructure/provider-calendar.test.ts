import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { appFunctions, roleStatements, testStack } from './helpers';

/*
 * The provider's calendar in the template (issue 34, item 7): the daily schedule of `provider-calendar`, its role
 * (the OpenAI key's secret, nothing else of the app's), and the two alarms that notify the stage's alarm topic when a
 * shutdown date appears and again 30 days before it.
 */

describe('Provider calendar', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = testStack({ stage: 'dev' }, 'Test-provider-calendar'));
  });

  const calendar = () => {
    const fn = appFunctions(template).get('ProviderCalendar');
    expect(fn).toBeDefined();
    return fn!;
  };

  it('invokes provider-calendar once a day through EventBridge Scheduler', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 day)',
      State: 'ENABLED',
      Target: Match.objectLike({ Arn: { 'Fn::GetAtt': [calendar().logicalId, 'Arn'] } }),
    });
  });

  it('reads the OpenAI key secret and touches nothing else of the app (no table, bucket or workflow)', () => {
    const actions = roleStatements(template, calendar().logicalId)
      .filter((s) => s.Effect === 'Allow')
      .flatMap((s) => s.Action);
    expect(actions).toContain('secretsmanager:GetSecretValue');
    expect(actions.filter((a) => /^(dynamodb|s3|states|sqs|ses|cognito-idp):/.test(a))).toEqual([]);
    const env = (calendar().resource.Properties?.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(Object.keys(env)).toContain('OPENAI_API_KEY_SECRET_ARN');
  });

  it('alarms to the alarm topic when a shutdown date appears (the 0/1 metric, daily maximum)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ProviderModelShutdownScheduled',
      Namespace: 'HeadshotStudio',
      Dimensions: Match.arrayWith([{ Name: 'stage', Value: 'dev' }]),
      Statistic: 'Maximum',
      Period: 86_400,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('^AlarmsTopic') })],
    });
  });

  it('alarms again when the shutdown is 30 days away or less', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [Match.objectLike({ Ref: Match.stringLikeRegexp('^AlarmsTopic') })],
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: 'IF(days <= 30, 1, 0)' }),
        Match.objectLike({
          Id: 'days',
          MetricStat: Match.objectLike({
            Metric: Match.objectLike({
              MetricName: 'ProviderModelDaysToShutdown',
              Namespace: 'HeadshotStudio',
            }),
            Period: 86_400,
            Stat: 'Minimum',
          }),
        }),
      ]),
    });
  });
});
