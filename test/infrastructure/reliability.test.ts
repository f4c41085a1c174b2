import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HeadshotStudioStack } from '../../infrastructure/stack';
import { appFunctions, nagAudit, roleStatements, testStack } from './helpers';

/*
 * Nothing stranded, every failure visible: the sweeper's schedule, the compensator's dead-letter queue and its
 * alarm, an Errors alarm per non-API function, the business alarms — and cdk-nag still clean.
 */

describe('Reliability', () => {
  let template: Template;
  let stack: HeadshotStudioStack;
  beforeAll(() => {
    ({ template, stack } = testStack({ stage: 'dev' }, 'Test-reliability'));
  });

  it('invokes the generation sweeper every 5 minutes through EventBridge Scheduler', () => {
    const sweeper = appFunctions(template).get('GenerationSweeper');
    expect(sweeper).toBeDefined();
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Target: Match.objectLike({
        Arn: { 'Fn::GetAtt': [sweeper!.logicalId, 'Arn'] },
        Input: '{}',
        RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 2 }),
      }),
    });
  });

  it('sends the compensator’s failed invocations to an SQS dead-letter queue, with an alarm on its depth', () => {
    const compensator = appFunctions(template).get('GenerationExecutionEnded');
    expect(compensator).toBeDefined();
    const queues = template.findResources('AWS::SQS::Queue');
    const [queueId] = Object.keys(queues).filter((id) => id.includes('CompensatorDeadLetters'));
    expect(queueId).toBeDefined();
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: compensator!.logicalId },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Threshold: 1,
      AlarmActions: Match.anyValue(),
    });
  });

  it('alarms on the unexpected errors of every non-API function, and on the money signals of its own stage', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => (a as { Properties: Record<string, unknown> }).Properties,
    );
    type Query = { Id: string; Expression?: string; MetricStat?: { Metric: Record<string, unknown> } };
    // Errors minus the outcomes the handler counted as ExpectedErrors (a likeness rejection, no usable photo, …).
    const errors = alarms.filter((a) => {
      const queries = (a.Metrics ?? []) as Query[];
      const names = queries.map((q) => q.MetricStat?.Metric.MetricName);
      return names.includes('Errors') && names.includes('ExpectedErrors');
    });
    expect(errors.length).toBe(
      stack.functions.all.filter((f) => f.entry.kind !== 'http' && f.entry.kind !== 'webhook').length,
    );
    for (const alarm of errors) {
      const queries = alarm.Metrics as Query[];
      expect(queries.find((q) => q.Expression)?.Expression).toBe('errors - FILL(expected, 0)');
      const expected = queries.find((q) => q.MetricStat?.Metric.MetricName === 'ExpectedErrors')!;
      expect(expected.MetricStat!.Metric.Dimensions).toEqual(
        expect.arrayContaining([
          { Name: 'stage', Value: 'dev' },
          { Name: 'function', Value: expect.anything() },
        ]),
      );
    }
    for (const metric of [
      'PaidNotCredited',
      'DisputesCreated',
      'ReversalShortfalls',
      'ProviderMisconfigured',
      'MailRefused',
      'QueueTicketsSetAside',
    ]) {
      const alarm = alarms.find((a) => a.MetricName === metric && a.Namespace === 'HeadshotStudio');
      expect(alarm, metric).toBeDefined();
      expect(alarm!.Dimensions).toEqual(expect.arrayContaining([{ Name: 'stage', Value: 'dev' }]));
    }
    expect(JSON.stringify(alarms)).toContain('100 * refunds / purchases');
  });

  it('tells every function its stage, and leaves the image provider to the handlers’ cloud default (openai)', () => {
    const functions = [...appFunctions(template).values()];
    expect(functions.length).toBeGreaterThan(5);
    for (const { resource } of functions) {
      const variables = (
        resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined
      )?.Variables;
      expect(variables?.STAGE).toBe('dev');
      expect(variables?.IMAGE_PROVIDER).toBeUndefined();
    }
  });

  it('lets only the "Delete my account" function delete Cognito users, of this pool only', () => {
    const functions = appFunctions(template);
    const deletes = (logicalId: string) =>
      roleStatements(template, logicalId).filter((s) => s.Action.includes('cognito-idp:AdminDeleteUser'));
    const deleteAccount = functions.get('HttpDeleteAccount');
    expect(deleteAccount).toBeDefined();
    const [statement, ...more] = deletes(deleteAccount!.logicalId);
    expect(more).toEqual([]);
    expect(statement!.Action).toEqual(['cognito-idp:AdminDeleteUser']);
    expect(JSON.stringify(statement!.Resource)).toMatch(/UserPool.*Arn/);
    for (const [id, fn] of functions) {
      if (id !== 'HttpDeleteAccount') expect(deletes(fn.logicalId), id).toEqual([]);
    }
  });

  it('passes cdk-nag', () => {
    expect(nagAudit(stack).open).toEqual([]);
  });
});
