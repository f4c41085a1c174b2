import { beforeAll, describe, expect, it } from 'vitest';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { deployedFunctions } from '../../functions/catalogue';
import { IncompleteBuildError, type HeadshotStudioStack } from '../../infrastructure/stack';
import {
  appFunctions,
  devStack,
  expectProtectedTableAndUserPool,
  fakeSharpLayer,
  FIXTURES,
  nagAudit,
  testStack,
} from './helpers';

describe('HeadshotStudioStack (dev)', () => {
  const { template } = devStack();

  describe('Data', () => {
    it('has one on-demand table with the design keys and point-in-time recovery', () => {
      template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
      template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        Replicas: [{ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }],
      });
      template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
    });
  });
});

type Resource = {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties?: Record<string, unknown>;
};

describe('HeadshotStudioStack (prod)', () => {
  let template: Template;
  let stack: HeadshotStudioStack;
  beforeAll(() => {
    ({ template, stack } = testStack({ stage: 'prod', mailFrom: 'headshots@example.com' }));
  });

  it('protects and retains the table, the user pool and the data buckets', () => {
    expectProtectedTableAndUserPool(template);
    // Retained on a stack delete and on a replacement, deleted when the create that made them rolls back: they are
    // empty then (only customers put objects there), and the retry can create them again under the same names.
    for (const suffix of ['-uploads$', '-results$']) {
      template.hasResource('AWS::S3::Bucket', {
        DeletionPolicy: 'RetainExceptOnCreate',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({
          BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp(suffix)])] },
        }),
      });
    }
    const buckets = template.findResources('AWS::S3::Bucket');
    const policy = (idPart: string) =>
      Object.entries(buckets)
        .filter(([id]) => id.includes(idPart))
        .map(([, r]) => [r.DeletionPolicy, r.UpdateReplacePolicy]);
    expect(policy('AnalyticsBucket')).toEqual([['RetainExceptOnCreate', 'Retain']]);
    // AWS writes logs here during the create, and a bucket with objects cannot be deleted: kept, never named.
    expect(policy('StorageLogBucket')).toEqual([['Retain', 'Retain']]);
    // No auto-delete custom resource may empty a prod data bucket.
    expect(JSON.stringify(template.findResources('Custom::S3AutoDeleteObjects'))).not.toMatch(
      /Storage(Uploads|Results|LogBucket)|Analytics/,
    );
  });

  it('can retry a failed first create: whatever it keeps on rollback has no fixed name', () => {
    // DeletionPolicy Retain survives a rollback of the create (RetainExceptOnCreate does not): a fixed name would
    // make the next attempt fail "already exists".
    const named = /^(BucketName|TableName|UserPoolName|LogGroupName|Name|QueueName|TopicName|SecretName)$/;
    const retainedOnRollback = Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(
      ([, r]) => r.DeletionPolicy === 'Retain',
    );
    // Only what must outlive the stack: the table, the user pool (both protected) and the S3 log bucket.
    expect(retainedOnRollback.map(([, r]) => r.Type).sort()).toEqual([
      'AWS::Cognito::UserPool',
      'AWS::DynamoDB::GlobalTable',
      'AWS::S3::Bucket',
    ]);
    for (const [id, r] of retainedOnRollback) {
      // A name given as a string or built with Fn::Join is fixed; a Ref to another resource is not a name of its own.
      const fixed = Object.entries(r.Properties ?? {}).filter(
        ([key, value]) =>
          named.test(key) && (typeof value === 'string' || JSON.stringify(value).includes('Fn::Join')),
      );
      expect(fixed, `${id} (${r.Type})`).toEqual([]);
    }
    // Deletion protection refuses the delete a rollback would make, so protected resources are the retained ones.
    const protectedIds = Object.entries(template.toJSON().Resources as Record<string, Resource>)
      .filter(([, r]) =>
        /"(DeletionProtection|DeletionProtectionEnabled)":("ACTIVE"|true)/.test(JSON.stringify(r.Properties)),
      )
      .map(([id, r]) => [id, r.DeletionPolicy]);
    expect(protectedIds.length).toBe(2);
    for (const [id, deletionPolicy] of protectedIds) expect(deletionPolicy, id).toBe('Retain');
  });

  it('passes cdk-nag too', () => {
    expect(nagAudit(stack).open).toEqual([]);
  });
});

describe('HeadshotStudioStack options', () => {
  it('serves a custom domain with its certificate, TLS 1.2 and API CORS for that origin only', () => {
    const { template, stack } = testStack(
      {
        domainName: 'headshots.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f7e5d3c-1111-2222-3333-444455556666',
        cognitoFeaturePlan: 'plus',
      },
      'Domain-dev',
    );
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['headshots.example.com'],
        ViewerCertificate: Match.objectLike({
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        }),
      }),
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://headshots.example.com'] }),
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedOrigins: ['https://headshots.example.com'] })],
      },
    });
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
    expect(nagAudit(stack).open).toEqual([]);
  });

  it('rejects a certificate outside us-east-1', () => {
    expect(() =>
      testStack(
        {
          domainName: 'headshots.example.com',
          certificateArn:
            'arn:aws:acm:eu-west-1:123456789012:certificate/0f7e5d3c-1111-2222-3333-444455556666',
        },
        'BadCert-dev',
      ),
    ).toThrow(/us-east-1/);
  });

  it('deploys the built site with immutable hashed assets and revalidated pages', () => {
    const { template } = testStack({ siteDir: `${FIXTURES}site` }, 'Built-dev');
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map(
      (d) => d.Properties as Record<string, unknown>,
    );
    expect(deployments).toHaveLength(3);
    expect(deployments).toContainEqual(
      expect.objectContaining({
        Include: ['assets/*'],
        Exclude: ['*'],
        Prune: false,
        SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
      }),
    );
    expect(deployments).toContainEqual(
      expect.objectContaining({
        Exclude: ['assets/*', 'config.json'],
        SystemMetadata: { 'cache-control': 'public, max-age=0, must-revalidate' },
        DistributionPaths: ['/*'],
      }),
    );
  });

  it('attaches the sharp layer to the functions that declare it, and only to them', () => {
    const { template, stack } = testStack({ nativeLayerDir: fakeSharpLayer() }, 'Layer-dev');
    const layers = Object.keys(template.findResources('AWS::Lambda::LayerVersion')).filter((id) =>
      /SharpLayer/.test(id),
    );
    expect(layers).toHaveLength(1);
    const withLayer = [...appFunctions(template)]
      .filter(([, { resource }]) => JSON.stringify(resource.Properties!.Layers ?? []).includes(layers[0]!))
      .map(([id]) => id);
    // The workflow's image tasks decode, resize and encode with sharp, and the photo checks decode each upload for
    // the vision module; no other HTTP handler loads it.
    expect(withLayer.every((id) => /^(Generation|HttpCreatePhotoChecks)/.test(id))).toBe(true);
    expect(withLayer.some((id) => id.startsWith('HttpCreatePhotoChecks'))).toBe(true);
    expect(withLayer.length > 0).toBe(deployedFunctions.some((f) => f.assets.includes('sharp-layer')));
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('sharp'))).toHaveLength(0);
  });

  it('refuses to synthesize real code without the built site or the sharp layer, naming both fixes', () => {
    const attempt = (props: Parameters<typeof testStack>[0]) => () =>
      testStack({ stubFunctionCode: false, ...props }, 'Incomplete-dev');
    expect(attempt({})).toThrow(/npm run build`[\s\S]*npm run build:layers/);
    expect(attempt({ siteDir: `${FIXTURES}site` })).toThrow(IncompleteBuildError);
    expect(attempt({ nativeLayerDir: fakeSharpLayer() })).toThrow(/built site/);
  });
});
