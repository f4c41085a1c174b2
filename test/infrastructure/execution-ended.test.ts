import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { EXECUTION_ENDED_RULE } from '../../infrastructure/constructs/execution-ended-rule';
import { appFunctions, testStack } from './helpers';

describe('compensation of executions that end early', () => {
  it('an EventBridge rule sends FAILED, TIMED_OUT and ABORTED executions of the workflow to generation-execution-ended', () => {
    const { template } = testStack();
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: {
        EventPattern: {
          source: ['aws.states'],
          'detail-type': ['Step Functions Execution Status Change'],
          detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [Match.anyValue()] },
        },
      },
    });
    expect(Object.keys(rules)).toHaveLength(1);
    const rule = Object.values(rules)[0]!;
    const targetArn = JSON.stringify(rule.Properties.Targets[0].Arn);
    const fn = [...appFunctions(template)].find(([name]) => name === 'GenerationExecutionEnded');
    expect(fn).toBeDefined();
    expect(targetArn).toContain(fn![1].logicalId);
  });

  it('retries delivery with the policy the local event bus uses (one shared definition)', () => {
    const { template } = testStack();
    const [rule] = Object.values(
      template.findResources('AWS::Events::Rule', {
        Properties: { EventPattern: { source: ['aws.states'] } },
      }),
    );
    expect(rule!.Properties.Targets[0].RetryPolicy).toEqual({
      MaximumRetryAttempts: EXECUTION_ENDED_RULE.delivery.retryAttempts,
      MaximumEventAgeInSeconds: EXECUTION_ENDED_RULE.delivery.maxEventAgeSeconds,
    });
    const compensator = appFunctions(template).get('GenerationExecutionEnded');
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: compensator!.logicalId },
      MaximumRetryAttempts: EXECUTION_ENDED_RULE.asyncInvoke.retryAttempts,
      MaximumEventAgeInSeconds: EXECUTION_ENDED_RULE.asyncInvoke.maxEventAgeSeconds,
    });
  });
});
