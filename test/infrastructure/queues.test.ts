import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QueueDefinition } from '../../functions/queue-catalogue';
import type { HeadshotStudioStack } from '../../infrastructure/stack';
import { appFunctions, nagAudit, roleStatements, testStack } from './helpers';

/*
 * The queue catalogue in the cloud: each queue encrypted and TLS-only with its dead-letter queue and an alarm on
 * it, the event source mapping with the catalogue's settings, consume for the consumer, send and the URL for each
 * producer — and cdk-nag still clean. The catalogue ships empty until the provider queue lands, so a test queue
 * with real catalogue functions stands in.
 */

const testQueue: QueueDefinition = {
  name: 'test-wakeup',
  consumer: 'generation-sweeper',
  producers: ['http-me'],
  batchSize: 20,
  maxBatchingWindowSeconds: 2,
  maxConcurrency: 2,
  visibilityTimeoutSeconds: 720,
  maxReceiveCount: 4,
  reportBatchItemFailures: true,
};

type Resources = Record<string, { Properties: Record<string, unknown> }>;

describe('Queues', () => {
  let template: Template;
  let stack: HeadshotStudioStack;
  let queueId: string;
  let deadLetterId: string;
  beforeAll(() => {
    ({ template, stack } = testStack({ stage: 'dev', queues: [testQueue] }, 'Test-queues'));
    const ids = Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) =>
      id.includes('TestWakeup'),
    );
    deadLetterId = ids.find((id) => id.includes('DeadLetters'))!;
    queueId = ids.find((id) => id !== deadLetterId)!;
  });

  it('creates the queue encrypted, with its visibility timeout and a dead-letter queue after maxReceiveCount', () => {
    expect(queueId).toBeDefined();
    expect(deadLetterId).toBeDefined();
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 720,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] }, maxReceiveCount: 4 },
    });
    const queues = template.findResources('AWS::SQS::Queue') as Resources;
    expect(queues[deadLetterId]!.Properties).toMatchObject({
      MessageRetentionPeriod: 1_209_600,
      SqsManagedSseEnabled: true,
    });
  });

  it('refuses requests without TLS on both queues', () => {
    for (const id of [queueId, deadLetterId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('maps the queue to its consumer with the catalogue’s batch, window, concurrency and partial batch response', () => {
    const consumer = appFunctions(template).get('GenerationSweeper')!;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer.logicalId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 20,
      MaximumBatchingWindowInSeconds: 2,
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const consume = roleStatements(template, consumer.logicalId).find((s) =>
      s.Action.includes('sqs:ReceiveMessage'),
    );
    expect(consume?.Action).toEqual(
      expect.arrayContaining(['sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
    );
    expect(consume?.Resource).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
  });

  it('lets each producer send, and only send, and gives it the URL as <NAME>_QUEUE_URL', () => {
    const producer = appFunctions(template).get('HttpMe')!;
    const send = roleStatements(template, producer.logicalId).filter((s) =>
      s.Action.some((a) => a.startsWith('sqs:')),
    );
    expect(send).toHaveLength(1);
    expect(send[0]!.Action.filter((a) => a.startsWith('sqs:'))).toEqual(
      expect.arrayContaining(['sqs:SendMessage']),
    );
    expect(send[0]!.Action).not.toContain('sqs:ReceiveMessage');
    expect(send[0]!.Resource).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    const env = (producer.resource.Properties?.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(env.TEST_WAKEUP_QUEUE_URL).toEqual({ Ref: queueId });
  });

  it('alarms as soon as one message is in the dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterId, 'QueueName'] } }],
      Threshold: 1,
      AlarmActions: Match.anyValue(),
    });
  });

  it('passes cdk-nag', () => {
    expect(nagAudit(stack).open).toEqual([]);
  });

  it('refuses to synthesize a queue Lambda would refuse', () => {
    expect(() =>
      testStack({ stage: 'dev', queues: [{ ...testQueue, maxConcurrency: 1 }] }, 'Test-q1'),
    ).toThrow(/maxConcurrency must be 2-1000/);
    expect(() =>
      testStack({ stage: 'dev', queues: [{ ...testQueue, visibilityTimeoutSeconds: 60 }] }, 'Test-q2'),
    ).toThrow(/less than generation-sweeper's timeout 120 s/);
  });
});
