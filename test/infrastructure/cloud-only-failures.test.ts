import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addStacks } from '../../infrastructure/app-stacks';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { appFunctions, roleStatements, samIdOfHandler } from './helpers';

/**
 * What only the cloud enforces and the local stack cannot see (issue 34): DynamoDB Local ignores IAM, and nothing
 * local reads a topic policy. Each test reads the synthesized templates of a two-region deployment (the stage stack in
 * eu-west-1, the edge stack in us-east-1), as `cdk deploy` would send them.
 */

const ACCOUNT = '123456789012';

type Statement = {
  Sid?: string;
  Effect: string;
  Principal?: unknown;
  Action: string | string[];
  Resource?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

/** A template value with its pseudo parameters filled in (`Fn::Join` of strings and `AWS::Partition` → `aws`). */
function resolved(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as { Ref?: string }).Ref;
  if (ref === 'AWS::Partition') return 'aws';
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) return join[1].map(resolved).join(join[0]);
  return value;
}

/** The statements of the policy of each SNS topic whose logical id starts with `prefix`. */
function topicPolicies(template: Template, prefix: RegExp): Statement[][] {
  const topics = Object.keys(template.findResources('AWS::SNS::Topic')).filter((id) => prefix.test(id));
  expect(topics, `no topic matches ${prefix}`).toHaveLength(1);
  return Object.values(template.findResources('AWS::SNS::TopicPolicy'))
    .filter((p) => (p.Properties as { Topics: { Ref: string }[] }).Topics.some((t) => topics.includes(t.Ref)))
    .map((p) => (p.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement);
}

const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

describe('what only the cloud enforces', () => {
  let main: Template;
  let edge: Template;
  beforeAll(() => {
    const app = new App({ context: { stubFunctionCode: 'true', alarmEmail: 'ops@example.com' } });
    const stacks = addStacks(app, settingsFromContext(app.node), { account: ACCOUNT, region: 'eu-west-1' });
    main = Template.fromStack(stacks.main);
    edge = Template.fromStack(stacks.edge!);
  });

  it('lets every function that counts a signed-in quota read the user item that tells 409 from 410 (GetItem)', () => {
    // adapters/quotas.ts: a refused quota transaction reads the user item (GetItem) to answer ACCOUNT_DELETING (409)
    // or ACCOUNT_DELETED (410); without the grant the call is denied and the route answers 500 in the cloud only.
    const fns = appFunctions(main);
    for (const handler of [
      'http/create-uploads',
      'http/create-checkout-session',
      'http/get-checkout-session',
      'http/create-photo-checks',
      'http/regenerate-headshot',
      'http/edit-headshot',
      'http/delete-my-data',
    ]) {
      const { logicalId } = fns.get(samIdOfHandler(handler))!;
      const statements = roleStatements(main, logicalId).filter((s) => s.Effect === 'Allow');
      const table = statements.filter((s) => s.Action.includes('dynamodb:GetItem'));
      expect(table.length, `${handler} dynamodb:GetItem`).toBeGreaterThan(0);
      for (const statement of table) {
        expect(statement.Resource, handler).toEqual([
          { 'Fn::GetAtt': [expect.stringMatching(/^DataTable/), 'Arn'] },
        ]);
      }
    }
  });

  it.each([
    ['stage stack (eu-west-1)', () => main, /^AlarmsTopic/, 'eu-west-1'],
    ['edge stack (us-east-1)', () => edge, /^AlarmTopic/, 'us-east-1'],
  ] as const)(
    'lets CloudWatch publish to the alarm topic of the %s, for this account’s alarms of that region only, over TLS only',
    (_name, template, topicId, region) => {
      const [statements] = topicPolicies(template(), topicId);
      expect(statements, 'one topic policy').toBeDefined();
      const publishers = statements!.filter(
        (s) => s.Effect === 'Allow' && actionsOf(s).includes('sns:Publish'),
      );
      expect(publishers).toHaveLength(1);
      const [allow] = publishers;
      expect(allow!.Principal).toEqual({ Service: 'cloudwatch.amazonaws.com' });
      expect(actionsOf(allow!)).toEqual(['sns:Publish']);
      expect(allow!.Resource).toEqual({ Ref: expect.stringMatching(topicId) });
      expect(allow!.Condition?.StringEquals?.['aws:SourceAccount']).toBe(ACCOUNT);
      expect(resolved(allow!.Condition?.ArnLike?.['aws:SourceArn'])).toBe(
        `arn:aws:cloudwatch:${region}:${ACCOUNT}:alarm:*`,
      );
      // enforceSSL's Deny still holds for every principal, CloudWatch included.
      const deny = statements!.find((s) => s.Effect === 'Deny');
      expect(deny?.Principal).toEqual('*');
      expect(actionsOf(deny!)).toContain('sns:Publish');
      expect(deny!.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
    },
  );
});
