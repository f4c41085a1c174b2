import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addStacks } from '../../infrastructure/app-stacks';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import type { HeadshotStudioStack } from '../../infrastructure/stack';
import { appFunctions, AwsSolutionsChecks, nagAudit, testStack } from './helpers';

/*
 * Operable in the cloud (issue 26): every alarm and what pages it, the stage's dashboard, the SES configuration set
 * every mail goes through, the execution-ended rule's dead-letter queue, and the secrets extension's cache.
 */

/** Where an alarm's notification goes. */
type Pager = 'stage alarm topic' | 'edge alarm topic (us-east-1)';

/**
 * EVERY alarm of the app and what pages it. A new alarm fails the test until it is listed here — and described in
 * docs/operations.md's "Alarms" section (what it means, what to do). `<function>` stands for each function's name and
 * `<n>` for the group number of alarms that watch functions ten at a time (metric math takes 10 metrics).
 */
const ALARMS: Record<string, Pager> = {
  'Alarms/WorkflowExecutionsFailed': 'stage alarm topic',
  'Alarms/WorkflowExecutionsTimedOut': 'stage alarm topic',
  'Alarms/Api5xx': 'stage alarm topic',
  'Alarms/LambdaThrottles<n>': 'stage alarm topic',
  'Reliability/CompensatorDeadLettersVisible': 'stage alarm topic',
  'Reliability/Errors-<function>': 'stage alarm topic',
  'Reliability/PaidNotCredited': 'stage alarm topic',
  'Reliability/Disputes': 'stage alarm topic',
  'Reliability/ReversalShortfalls': 'stage alarm topic',
  'Reliability/ProviderMisconfigured': 'stage alarm topic',
  'Reliability/MailRefused': 'stage alarm topic',
  'Reliability/QueueTicketsSetAside': 'stage alarm topic',
  'Reliability/RefundRatio': 'stage alarm topic',
  'Monitoring/Operations/DynamoDbThrottles': 'stage alarm topic',
  'Monitoring/Operations/StepFunctionsExecutionsThrottled': 'stage alarm topic',
  'Monitoring/Operations/StepFunctionsTransitionsThrottled': 'stage alarm topic',
  'Monitoring/Operations/ApiThrottled': 'stage alarm topic',
  'Monitoring/Operations/ApiLatencyP99': 'stage alarm topic',
  'Monitoring/Operations/LambdaDurationNearTimeout<n>': 'stage alarm topic',
  'Monitoring/Operations/LambdaAccountConcurrency': 'stage alarm topic',
  'Monitoring/Operations/FirehoseDeliveryStale': 'stage alarm topic',
  'Monitoring/Operations/ExecutionEndedRuleDeadLetters': 'stage alarm topic',
  'Monitoring/Operations/ProviderFailureRate': 'stage alarm topic',
  'Monitoring/Operations/ProviderRefusalRate': 'stage alarm topic',
  'Monitoring/Operations/ProviderModelShutdownAnnounced': 'stage alarm topic',
  'Monitoring/Operations/ProviderModelShutdownImminent': 'stage alarm topic',
  'Monitoring/Operations/SesBounceRate': 'stage alarm topic',
  'Monitoring/Operations/SesComplaintRate': 'stage alarm topic',
  'Monitoring/EdgeAlarms/CloudFront5xxRate': 'stage alarm topic',
  'Monitoring/EdgeAlarms/WafBlockedRequests': 'stage alarm topic',
  'Queues/<queue>DeadLettersVisible': 'stage alarm topic',
  'EdgeAlarms/WafBlockedRequests': 'edge alarm topic (us-east-1)',
};

/** Every CloudWatch alarm under `stack`, by its path below the stack with names and group numbers generalised. */
function alarmsOf(
  stack: Stack,
  functionNames: readonly string[],
): { key: string; alarm: cloudwatch.Alarm }[] {
  const found: { key: string; alarm: cloudwatch.Alarm }[] = [];
  const walk = (c: IConstruct) => {
    if (c instanceof cloudwatch.Alarm) {
      let key = c.node.path.slice(stack.node.path.length + 1);
      for (const name of [...functionNames].sort((a, b) => b.length - a.length)) {
        key = key.replace(`Errors-${name}`, 'Errors-<function>');
      }
      key = key
        .replace(/(LambdaThrottles|LambdaDurationNearTimeout)\d*$/, '$1<n>')
        .replace(/^Queues\/\w+DeadLettersVisible$/, 'Queues/<queue>DeadLettersVisible');
      found.push({ key, alarm: c });
    }
    c.node.children.forEach(walk);
  };
  walk(stack);
  return found;
}

/** docs/operations.md's "Alarms" section. */
function operationsSection(): string {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const start = doc.indexOf('## Alarms');
  expect(start, 'docs/operations.md has an "Alarms" section').toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe('Operations: alarms, dashboard, mail events', () => {
  let stack: HeadshotStudioStack;
  let template: Template;
  let names: string[];
  beforeAll(() => {
    ({ stack, template } = testStack(
      { stage: 'prod', mailFrom: 'headshots@example.com', alarmEmail: 'ops@example.com' },
      'Test-operations',
    ));
    names = stack.functions.all.map((f) => f.entry.name);
  });

  it('lists every alarm and what pages it: each sends to the stage’s alarm topic and is explained in docs/operations.md', () => {
    const alarms = alarmsOf(stack, names);
    const section = operationsSection();
    const unlisted = alarms.filter(({ key }) => !(key in ALARMS)).map(({ key }) => key);
    expect(unlisted, 'add each new alarm to ALARMS (what pages it) and to docs/operations.md').toEqual([]);
    // One per queue of functions/queue-catalogue.ts: none while the queue catalogue is empty.
    const conditional = new Set(['Queues/<queue>DeadLettersVisible']);
    const stale = Object.keys(ALARMS).filter(
      (key) =>
        ALARMS[key] === 'stage alarm topic' && !conditional.has(key) && !alarms.some((a) => a.key === key),
    );
    expect(stale, 'listed alarms the stack no longer has').toEqual([]);
    const topic = { Ref: expect.stringMatching(/^AlarmsTopic/) };
    const resources = template.findResources('AWS::CloudWatch::Alarm');
    for (const { key, alarm } of alarms) {
      const logicalId = stack.getLogicalId(alarm.node.defaultChild as cloudwatch.CfnAlarm);
      const properties = (resources[logicalId] as { Properties: Record<string, unknown> }).Properties;
      expect(properties.AlarmActions, key).toEqual([topic]);
      expect(properties.AlarmDescription, key).toEqual(expect.any(String));
      const name = key.split('/').pop()!;
      expect(section, `docs/operations.md "Alarms" explains ${name}`).toContain(`\`${name}\``);
    }
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });

  it('alarms on SES bounce and complaint rates at AWS’s review levels (5 %, 0.1 %)', () => {
    for (const [metric, threshold] of [
      ['Reputation.BounceRate', 0.05],
      ['Reputation.ComplaintRate', 0.001],
    ] as const) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SES',
        MetricName: metric,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('sends every mail through the stage’s configuration set, whose events reach CloudWatch', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'HeadshotStudio-prod' });
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: Match.anyValue(),
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['send', 'delivery', 'bounce', 'complaint', 'reject']),
        CloudWatchDestination: {
          DimensionConfigurations: [
            {
              DimensionName: 'ses:configuration-set',
              DimensionValueSource: 'messageTag',
              DefaultDimensionValue: 'HeadshotStudio-prod',
            },
          ],
        },
      }),
    });
    const notify = appFunctions(template).get('GenerationNotifyCustomer')!;
    const variables = (notify.resource.Properties?.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(variables.MAIL_CONFIGURATION_SET).toBe('HeadshotStudio-prod');
    // Cognito's codes and password resets too.
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: Match.objectLike({ ConfigurationSet: 'HeadshotStudio-prod' }),
    });
  });

  it('gives the execution-ended rule a dead-letter queue', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule')) as {
      Properties: { Targets: { DeadLetterConfig?: { Arn: unknown } }[] };
    }[];
    const targets = rules.flatMap((r) => r.Properties.Targets);
    expect(targets).toHaveLength(1);
    expect(JSON.stringify(targets[0]!.DeadLetterConfig?.Arn)).toMatch(/ExecutionEndedDeadLetters/);
  });

  it('draws the stage’s dashboard with every row the issue asks for, reading this stage’s metrics', () => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as {
      Properties: { DashboardName: string; DashboardBody: unknown };
    }[];
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties.DashboardName).toBe('HeadshotStudio-prod');
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const title of [
      'Generations',
      'Credits refunded, by reason',
      'Queue: length and wait (p95)',
      'Provider latency (ms)',
      'Provider 429 and failure rate (%)',
      'API p99 latency (ms)',
      'API answers',
      'Lambda errors (all functions)',
      'Lambda throttles',
      'Longest invocation, % of its timeout',
      'DynamoDB throttles',
      'Step Functions',
      'SES bounce and complaint rates (%)',
      'CloudFront 5xx rate (%) and WAF blocks',
      'AWS spend per day (USD, account)',
      'Alarms',
    ]) {
      expect(body, title).toContain(`\\"title\\":\\"${title}\\"`);
    }
    for (const metric of [
      'GenerationsStarted',
      'GenerationsDelivered',
      'QueueWait',
      'ProviderLatency',
      'EstimatedCharges',
    ]) {
      expect(body, metric).toContain(metric);
    }
    expect(body).toContain('stage=\\\\\\"prod\\\\\\"'); // the SEARCH of refunds by reason names the stage
    expect(body).not.toMatch(/stage\\",\\"dev/);
    expect(body).toContain('\\"region\\":\\"us-east-1\\"'); // billing, CloudFront and WAF
  });

  it('caches secrets in the extension for 45 s (the handlers re-read every 15 s: a rotation lands within 60 s)', () => {
    const withSecrets = [...appFunctions(template).values()].filter(
      ({ resource }) =>
        (resource.Properties?.Environment as { Variables?: Record<string, unknown> }).Variables
          ?.STRIPE_SECRET_ARN,
    );
    expect(withSecrets.length).toBeGreaterThan(0);
    for (const { resource } of withSecrets) {
      const variables = (resource.Properties?.Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(variables.SECRETS_MANAGER_TTL).toBe('45');
    }
  });

  it('passes cdk-nag', () => {
    expect(nagAudit(stack).open).toEqual([]);
  });
});

describe('Operations outside us-east-1', () => {
  it('watches the web ACL from the edge stack, with its own topic and the same alarm e-mail', () => {
    const app = new App({ context: { stubFunctionCode: 'true', alarmEmail: 'ops@example.com' } });
    const { main, edge } = addStacks(app, settingsFromContext(app.node), {
      account: '123456789012',
      region: 'eu-west-1',
    });
    const edgeAlarms = alarmsOf(edge!, []);
    expect(edgeAlarms.map((a) => a.key)).toEqual(['EdgeAlarms/WafBlockedRequests']);
    for (const { key } of edgeAlarms) expect(ALARMS[key]).toBe('edge alarm topic (us-east-1)');
    const edgeTemplate = Template.fromStack(edge!);
    edgeTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    edgeTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: Match.arrayWith([{ Name: 'Rule', Value: 'ALL' }]),
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^AlarmTopic') }],
    });
    // The alarm's WebACL dimension is the web ACL's metric name (VisibilityConfig.MetricName), or it watches nothing.
    const [webAcl] = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL')) as {
      Properties: { VisibilityConfig: { MetricName: string } };
    }[];
    edgeTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      Dimensions: Match.arrayWith([
        { Name: 'WebACL', Value: webAcl!.Properties.VisibilityConfig.MetricName },
      ]),
    });
    // The main stack (eu-west-1) has no alarm on us-east-1 metrics: an alarm cannot watch another region.
    expect(alarmsOf(main, []).some((a) => a.key.includes('EdgeAlarms'))).toBe(false);
    expect(nagAudit(main).open).toEqual([]);
    expect(new AwsSolutionsChecks().validateScope(edge!).violations.map((v) => v.ruleName)).toEqual([]);
  });
});
