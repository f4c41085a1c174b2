import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { SECRET_PLACEHOLDER } from '../../infrastructure/constructs/secrets';
import { GENERATION_ASL } from '../../infrastructure/stack';
import { appFunctions, AwsSolutionsChecks, devStack, nagAudit, roleStatements, testStack } from './helpers';

describe('HeadshotStudioStack (dev)', () => {
  const { template, stack } = devStack();

  describe('Site', () => {
    it('serves a private bucket through CloudFront with Origin Access Control and SPA routing', () => {
      template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
      template.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          DefaultRootObject: 'index.html',
          Logging: Match.objectLike({ Bucket: Match.anyValue() }),
          DefaultCacheBehavior: Match.objectLike({
            ViewerProtocolPolicy: 'redirect-to-https',
            FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
          }),
          // SPA fallback lives in the viewer-request function: distribution-wide error responses would rewrite the
          // API's JSON 403/404 into index.html.
          CustomErrorResponses: Match.absent(),
        }),
      });
    });

    it('routes /api/* to the HTTP API: no caching, all methods, every viewer header but Host', () => {
      const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!;
      const config = (distribution.Properties as { DistributionConfig: Record<string, unknown> })
        .DistributionConfig;
      const behaviors = config.CacheBehaviors as Record<string, unknown>[];
      expect(behaviors).toHaveLength(1);
      expect(behaviors[0]).toMatchObject({
        PathPattern: '/api/*',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
        OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
        ViewerProtocolPolicy: 'https-only',
      });
      const origins = config.Origins as { Id: string; DomainName: unknown; CustomOriginConfig?: unknown }[];
      const apiOrigin = origins.find((o) => o.Id === behaviors[0]!.TargetOriginId)!;
      expect(JSON.stringify(apiOrigin.DomainName)).toMatch(/ApiHttpApi.*execute-api/);
      expect(apiOrigin.CustomOriginConfig).toMatchObject({
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
    });

    it('sends CSP, HSTS, frame-ancestors none, nosniff and a referrer policy on every response', () => {
      template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
        ResponseHeadersPolicyConfig: Match.objectLike({
          SecurityHeadersConfig: {
            ContentSecurityPolicy: { Override: true, ContentSecurityPolicy: Match.anyValue() },
            StrictTransportSecurity: Match.objectLike({ Override: true, AccessControlMaxAgeSec: 63072000 }),
            FrameOptions: { Override: true, FrameOption: 'DENY' },
            ContentTypeOptions: { Override: true },
            ReferrerPolicy: { Override: true, ReferrerPolicy: 'strict-origin-when-cross-origin' },
          },
        }),
      });
      const policy = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!;
      const csp = JSON.stringify(
        (
          policy.Properties as {
            ResponseHeadersPolicyConfig: { SecurityHeadersConfig: Record<string, unknown> };
          }
        ).ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
      );
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/connect-src 'self' https:\/\/cognito-idp\./);
      expect(csp).toMatch(/-uploads.*\.s3\./);
      expect(csp).toMatch(/-results.*\.s3\./);
      const distribution = JSON.stringify(template.findResources('AWS::CloudFront::Distribution'));
      expect(distribution.match(/ResponseHeadersPolicyId/g)).toHaveLength(2); // default and /api/* behaviours
    });

    it('writes config.json from the stack (same shape as the local one) even without a built site', () => {
      const deployments = template.findResources('Custom::CDKBucketDeployment');
      expect(Object.keys(deployments)).toHaveLength(1);
      const [deployment] = Object.values(deployments);
      const markers = JSON.stringify((deployment!.Properties as { SourceMarkers: unknown }).SourceMarkers);
      expect(markers).toMatch(/AuthUserPool/);
      expect(markers).toMatch(/AuthUserPoolWebClient/);
      expect(deployment!.Properties).toMatchObject({
        DestinationBucketName: { Ref: expect.stringMatching(/^SiteBucket/) },
        Prune: false,
        SystemMetadata: { 'cache-control': 'no-store' },
        DistributionPaths: ['/config.json'],
      });
      const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('npm run build'));
      expect(warnings).toHaveLength(1);
    });
  });

  describe('Secrets and alarms', () => {
    it('creates the Stripe, webhook and OpenAI secrets with a placeholder value, and a generated origin secret and bonus pepper', () => {
      const secrets = Object.values(template.findResources('AWS::SecretsManager::Secret')).map(
        (r) => r.Properties as Record<string, unknown>,
      );
      expect(secrets.filter((p) => p.SecretString === SECRET_PLACEHOLDER)).toHaveLength(3);
      // Generated: the origin secret and the sign-up bonus pepper.
      expect(secrets.filter((p) => p.GenerateSecretString !== undefined)).toHaveLength(2);
      expect(secrets).toHaveLength(5);
    });

    it('alarms on workflow failures, API 5xx and Lambda throttles, to one SNS topic', () => {
      template.resourceCountIs('AWS::SNS::Topic', 1);
      const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
        (a) => a.Properties as Record<string, unknown>,
      );
      const topic = { Ref: expect.stringMatching(/^AlarmsTopic/) };
      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([topic]);
      const names = alarms.map((a) => `${a.Namespace ?? ''}/${a.MetricName ?? JSON.stringify(a.Metrics)}`);
      expect(names).toContainEqual('AWS/ApiGateway/5xx');
      expect(names.some((n) => n.includes('Throttles'))).toBe(true);
      if (existsSync(GENERATION_ASL)) expect(names).toContainEqual('AWS/States/ExecutionsFailed');
    });
  });

  describe('Analytics', () => {
    it('delivers events through an encrypted Firehose stream to a private bucket, partitioned by date', () => {
      template.hasResourceProperties('AWS::KinesisFirehose::DeliveryStream', {
        DeliveryStreamEncryptionConfigurationInput: { KeyType: 'AWS_OWNED_CMK' },
        ExtendedS3DestinationConfiguration: Match.objectLike({
          Prefix: 'events/dt=!{timestamp:yyyy-MM-dd}/',
          CompressionFormat: 'GZIP',
        }),
      });
    });

    it('has a Glue table over the events with a projected dt partition, and an Athena workgroup', () => {
      template.hasResourceProperties('AWS::Glue::Table', {
        TableInput: Match.objectLike({
          Name: 'events',
          PartitionKeys: [{ Name: 'dt', Type: 'string' }],
          Parameters: Match.objectLike({ 'projection.enabled': 'true', 'projection.dt.type': 'date' }),
          StorageDescriptor: Match.objectLike({
            Columns: Match.arrayWith([
              { Name: 'event_name', Type: 'string' },
              { Name: 'user_sub', Type: 'string' },
              { Name: 'props', Type: 'map<string,string>' },
            ]),
            SerdeInfo: Match.objectLike({ SerializationLibrary: 'org.openx.data.jsonserde.JsonSerDe' }),
          }),
        }),
      });
      template.hasResourceProperties('AWS::Athena::WorkGroup', {
        WorkGroupConfiguration: Match.objectLike({ EnforceWorkGroupConfiguration: true }),
      });
      const outputs = Object.keys(template.findOutputs('*'));
      expect(outputs).toEqual(
        expect.arrayContaining(['AnalyticsDatabase', 'AnalyticsTable', 'AnalyticsWorkGroup']),
      );
    });

    it('lets exactly the functions that declare analytics put records, and names the stream and pool to it', () => {
      const fns = appFunctions(template);
      const putters = [...fns]
        .filter(([, { logicalId }]) =>
          roleStatements(template, logicalId).some((s) => s.Action.includes('firehose:PutRecordBatch')),
        )
        .map(([id]) => id)
        .sort();
      // The analytics route, and the two fulfilment paths (purchase_completed); creating a session records nothing.
      expect(putters).toEqual(['HttpAnalyticsEvents', 'HttpGetCheckoutSession', 'WebhooksStripe'].sort());
      const analytics = fns.get('HttpAnalyticsEvents')!;
      const env = template.toJSON().Resources[analytics.logicalId].Properties.Environment.Variables;
      expect(Object.keys(env)).toEqual(
        expect.arrayContaining(['ANALYTICS_STREAM_NAME', 'COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID']),
      );
    });
  });

  describe('cdk-nag', () => {
    it('passes AwsSolutions with no unsuppressed finding, and every suppression is used and explained', () => {
      const audit = nagAudit(stack);
      expect(audit.open).toEqual([]);
      expect(audit.unused.map((a) => `${a.path} ${a.id}`)).toEqual([]);
      for (const ack of audit.acknowledgements) expect(ack.reason.length, ack.id).toBeGreaterThan(30);
    });

    it('is not blind: an unsuppressed finding added to the stack is reported', () => {
      const { stack: other } = testStack({}, 'Careless-dev');
      new s3.Bucket(other, 'Careless');
      const rules = new AwsSolutionsChecks().validateScope(other).violations.map((v) => v.ruleName);
      expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
    });
  });
});
