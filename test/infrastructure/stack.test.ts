import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/http/routes';
import { localFunctions } from '../../infrastructure/local/functions';
import { FUNCTION_DEFAULTS } from '../../infrastructure/constructs/app-function';
import { functionArnKey, pascalCase } from '../../infrastructure/constructs/naming';
import { SECRET_PLACEHOLDER } from '../../infrastructure/constructs/secrets';
import { substitutionKeys, definitionTimeoutSeconds } from '../../infrastructure/constructs/workflow';
import { executionTimeoutSeconds } from '../../functions/domain/admission';
import { GENERATION_ASL, type HeadshotStudioStack } from '../../infrastructure/stack';
import {
  appFunctions,
  AwsSolutionsChecks,
  fakeSharpLayer,
  FIXTURES,
  getAttTarget,
  nagAudit,
  roleStatements,
  testStack,
} from './helpers';

const routeHandlers = [...new Set(routes.map((r) => r.handler))];
const deployedCatalogue = localFunctions.filter((f) => !f.localOnly);
const samIdOfHandler = (handler: string) => pascalCase(handler.replaceAll('/', '-'));

describe('HeadshotStudioStack (dev)', () => {
  let template: Template;
  let stack: HeadshotStudioStack;
  beforeAll(() => {
    ({ template, stack } = testStack({ stage: 'dev' }));
  });

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

  describe('Api', () => {
    it('has exactly one route per route-table row, integrated with that row’s handler function', () => {
      const deployed = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
        (r) => (r.Properties as { RouteKey: string }).RouteKey,
      );
      expect(deployed.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());

      const fns = appFunctions(template);
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
      for (const route of routes) {
        const [, resource] = Object.entries(template.findResources('AWS::ApiGatewayV2::Route')).find(
          ([, r]) => (r.Properties as { RouteKey: string }).RouteKey === `${route.method} ${route.path}`,
        )!;
        const target = (resource.Properties as { Target: { 'Fn::Join': [string, unknown[]] } }).Target;
        const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
        const integration = integrations[integrationId]!.Properties as Record<string, unknown>;
        expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
        expect(getAttTarget(integration.IntegrationUri)).toBe(
          fns.get(samIdOfHandler(route.handler))!.logicalId,
        );
      }
    });

    it('puts the Cognito JWT authorizer on every jwt route and none on public or Stripe-signature routes', () => {
      const authorizers = template.findResources('AWS::ApiGatewayV2::Authorizer');
      expect(Object.keys(authorizers)).toHaveLength(1);
      const [authorizerId] = Object.keys(authorizers);
      template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: {
          Audience: [{ Ref: Match.stringLikeRegexp('^AuthUserPoolWebClient') }],
          Issuer: {
            'Fn::Join': ['', Match.arrayWith([{ Ref: Match.stringLikeRegexp('^AuthUserPool') }])],
          },
        },
      });
      const byKey = new Map(
        Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => {
          const p = r.Properties as {
            RouteKey: string;
            AuthorizationType: string;
            AuthorizerId?: { Ref: string };
          };
          return [p.RouteKey, p];
        }),
      );
      for (const route of routes) {
        const deployed = byKey.get(`${route.method} ${route.path}`)!;
        if (route.auth === 'jwt') {
          expect(deployed, `${route.method} ${route.path}`).toMatchObject({
            AuthorizationType: 'JWT',
            AuthorizerId: { Ref: authorizerId },
          });
        } else {
          expect(deployed.AuthorizationType, `${route.method} ${route.path}`).toBe('NONE');
          expect(deployed.AuthorizerId).toBeUndefined();
        }
      }
      // The Stripe webhook must stay reachable without a JWT (Stripe signs it instead).
      const webhook = routes.find((r) => r.auth === 'stripe-signature');
      if (webhook) expect(byKey.get(`${webhook.method} ${webhook.path}`)!.AuthorizationType).toBe('NONE');
    });

    it('has one auto-deployed $default stage with throttling and JSON access logs', () => {
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        },
        AccessLogSettings: {
          DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ApiAccessLogs'), 'Arn'] },
          Format: Match.stringLikeRegexp('\\$context\\.requestId'),
        },
      });
      // Without a custom domain the SPA calls /api same-origin through CloudFront: no cross-origin caller at all.
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
    });
  });

  describe('Functions', () => {
    it('deploys one function per distinct route handler module and per catalogue entry that is not localOnly', () => {
      const ids = [...appFunctions(template).keys()].sort();
      const expected = [
        ...routeHandlers.map(samIdOfHandler),
        ...deployedCatalogue.map((f) => pascalCase(f.name)),
      ];
      expect(ids).toEqual(expected.sort());
      for (const local of localFunctions.filter((f) => f.localOnly)) {
        expect(ids).not.toContain(pascalCase(local.name));
      }
    });

    it('runs every function on Node.js 24 / arm64 with X-Ray, source maps and its own log group', () => {
      for (const [id, { resource }] of appFunctions(template)) {
        expect(resource.Properties, id).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
          LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/Logs/) } },
        });
      }
      template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: Match.anyValue() });
    });

    it('takes timeout and memory from the catalogue, and the role defaults otherwise', () => {
      const fns = appFunctions(template);
      for (const entry of deployedCatalogue) {
        const kind = entry.name.startsWith('cognito-') ? 'trigger' : 'task';
        expect(fns.get(pascalCase(entry.name))!.resource.Properties, entry.name).toMatchObject({
          Timeout: entry.timeoutSeconds ?? FUNCTION_DEFAULTS[kind].timeoutSeconds,
          MemorySize: entry.memorySize ?? FUNCTION_DEFAULTS[kind].memorySize,
        });
      }
      for (const handler of routeHandlers) {
        expect(fns.get(samIdOfHandler(handler))!.resource.Properties).toMatchObject({
          Timeout: FUNCTION_DEFAULTS.http.timeoutSeconds,
        });
      }
      // Every task that calls the image provider runs for minutes, never the API's 30 s.
      for (const [id, { resource }] of fns) {
        if (/Generate/.test(id))
          expect(resource.Properties!.Timeout as number, id).toBeGreaterThanOrEqual(120);
      }
    });

    it('gives every function the handler configuration, and secrets only as ARNs', () => {
      for (const [id, { resource }] of appFunctions(template)) {
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        for (const name of [
          'TABLE_NAME',
          'UPLOADS_BUCKET',
          'RESULTS_BUCKET',
          'SITE_ORIGIN',
          'SUPPORT_EMAIL',
          'LOG_LEVEL',
        ]) {
          expect(env, `${id} ${name}`).toHaveProperty(name);
        }
        for (const plain of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'OPENAI_API_KEY']) {
          expect(env, id).not.toHaveProperty(plain);
        }
      }
    });

    it('grants least privilege: public handlers nothing, no Scan, S3 only under uploads/ and results/', () => {
      const fns = appFunctions(template);
      for (const handler of routeHandlers) {
        const auths = new Set(routes.filter((r) => r.handler === handler).map((r) => r.auth));
        if (auths.size !== 1 || !auths.has('public')) continue;
        const actions = roleStatements(template, fns.get(samIdOfHandler(handler))!.logicalId).flatMap(
          (s) => s.Action,
        );
        // The analytics route counts requests per IP in the table and puts records into its stream: nothing else.
        const allowed =
          handler === 'http/analytics-events' ? /^(logs|xray|dynamodb|firehose):/ : /^(logs|xray):/;
        expect(
          actions.filter((a) => !allowed.test(a)),
          handler,
        ).toEqual([]);
      }
      for (const [id, { logicalId }] of fns) {
        for (const statement of roleStatements(template, logicalId)) {
          expect(statement.Action, id).not.toContain('dynamodb:Scan');
          expect(
            statement.Action.some((a) => a === '*' || a.endsWith(':*')),
            id,
          ).toBe(false);
          if (statement.Action.some((a) => /^s3:(Get|Put|Delete)Object$/.test(a))) {
            for (const resource of statement.Resource) {
              expect(JSON.stringify(resource), id).toMatch(/\/(uploads|results)\/\*"\]\]\}$/);
            }
          }
        }
      }
    });

    it('lets only code that calls Step Functions start and describe executions, of this state machine only', () => {
      if (!existsSync(GENERATION_ASL)) return;
      const fns = appFunctions(template);
      const starters = [...fns].filter(([, { logicalId }]) =>
        roleStatements(template, logicalId).some((s) => s.Action.includes('states:StartExecution')),
      );
      expect(starters.map(([id]) => id)).toContain('HttpCreateGeneration');
      for (const [id, { logicalId, resource }] of starters) {
        expect(id, 'only authenticated HTTP handlers start executions').toMatch(/^Http/);
        const statements = roleStatements(template, logicalId);
        const start = statements.filter((s) => s.Action.includes('states:StartExecution'));
        expect(start.flatMap((s) => s.Resource)).toEqual([
          { Ref: expect.stringMatching(/^WorkflowStateMachine/) },
        ]);
        expect(
          statements.some((s) => s.Action.includes('states:DescribeExecution')),
          id,
        ).toBe(true);
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(env.STATE_MACHINE_ARN).toEqual({ Ref: expect.stringMatching(/^WorkflowStateMachine/) });
      }
      for (const id of ['HttpHealth', 'HttpPacks', 'HttpMe', 'WebhooksStripe', 'CognitoPostConfirmation']) {
        expect(starters.map(([s]) => s)).not.toContain(id);
      }
    });

    it('gives the Stripe secrets only to code that imports stripe, the OpenAI key only to code that imports openai', () => {
      const secretReaders = new Map<string, string[]>();
      for (const [id, { logicalId, resource }] of appFunctions(template)) {
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        const reads = roleStatements(template, logicalId)
          .filter((s) => s.Action.includes('secretsmanager:GetSecretValue'))
          .flatMap((s) => s.Resource.map((r) => (r as { Ref: string }).Ref));
        secretReaders.set(id, reads);
        expect(reads.length > 0, id).toBe(
          ['STRIPE_SECRET_ARN', 'OPENAI_API_KEY_SECRET_ARN'].some((k) => k in env),
        );
        if ('STRIPE_SECRET_ARN' in env) {
          expect(env).toHaveProperty('STRIPE_WEBHOOK_SECRET_ARN');
          expect(resource.Properties!.Layers, id).toBeDefined(); // the Parameters and Secrets extension
        }
      }
      expect(secretReaders.get('WebhooksStripe')?.length ?? 2).toBe(2);
      expect(secretReaders.get('HttpMe')).toEqual([]);
      expect(secretReaders.get('CognitoPostConfirmation')).toEqual([]);
    });

    it('wires the post-confirmation trigger to the user pool', () => {
      const fns = appFunctions(template);
      template.hasResourceProperties('AWS::Cognito::UserPool', {
        LambdaConfig: {
          PostConfirmation: { 'Fn::GetAtt': [fns.get('CognitoPostConfirmation')!.logicalId, 'Arn'] },
        },
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'cognito-idp.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fns.get('CognitoPostConfirmation')!.logicalId, 'Arn'] },
      });
    });
  });

  describe('Workflow', () => {
    it.runIf(existsSync(GENERATION_ASL))(
      'builds the state machine from the ASL file, substituting every key and referencing every task',
      () => {
        const text = readFileSync(GENERATION_ASL, 'utf8');
        const keys = substitutionKeys(text);
        const fns = appFunctions(template);
        const machines = template.findResources('AWS::StepFunctions::StateMachine');
        expect(Object.keys(machines)).toHaveLength(1);
        const props = Object.values(machines)[0]!.Properties as Record<string, unknown>;
        expect(props.DefinitionS3Location).toBeDefined();
        const substitutions = props.DefinitionSubstitutions as Record<string, unknown>;
        expect(Object.keys(substitutions).sort()).toEqual([...keys].sort());

        // Every generation-* task of the catalogue is referenced by the definition, as its own function's ARN
        // (generation-execution-ended is run by EventBridge when an execution ends, not by the definition).
        const tasks = deployedCatalogue.filter(
          (f) => f.name.startsWith('generation-') && f.name !== 'generation-execution-ended' && !f.schedule,
        );
        expect(tasks.length).toBeGreaterThanOrEqual(6);
        for (const task of tasks) {
          const key = functionArnKey(task.name);
          expect(keys, `${task.name} is not referenced by the ASL`).toContain(key);
          expect(getAttTarget(substitutions[key])).toBe(fns.get(pascalCase(task.name))!.logicalId);
        }

        // The role may invoke exactly the referenced functions.
        const referenced = keys
          .filter((k) => k.endsWith('FunctionArn'))
          .map((k) => getAttTarget(substitutions[k]));
        const machineRole = getAttTarget(props.RoleArn);
        const invokable = Object.values(template.findResources('AWS::IAM::Policy'))
          .filter((p) =>
            ((p.Properties as { Roles: { Ref: string }[] }).Roles ?? []).some((r) => r.Ref === machineRole),
          )
          .flatMap(
            (p) =>
              (p.Properties as { PolicyDocument: { Statement: Record<string, unknown>[] } }).PolicyDocument
                .Statement,
          )
          .filter((s) => [s.Action].flat().includes('lambda:InvokeFunction'))
          .flatMap((s) => [s.Resource].flat().map(getAttTarget));
        expect(invokable.sort()).toEqual([...referenced].sort());
      },
    );

    it.runIf(existsSync(GENERATION_ASL))(
      'logs ALL to a log group, traces with X-Ray and times out at the generation deadline plus the last call',
      () => {
        template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
          StateMachineType: 'STANDARD',
          TracingConfiguration: { Enabled: true },
          LoggingConfiguration: {
            Level: 'ALL',
            IncludeExecutionData: false,
            Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: Match.anyValue() } }],
          },
        });
        // The definition's TimeoutSeconds is ${ExecutionTimeoutSeconds}, from GENERATION_DEADLINE_MINUTES (30).
        const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
        const values = machine!.Properties!.DefinitionSubstitutions as Record<string, string>;
        expect(values.ExecutionTimeoutSeconds).toBe(String(executionTimeoutSeconds(30)));
        expect(definitionTimeoutSeconds(readFileSync(GENERATION_ASL, 'utf8'), values)).toBe(30 * 60 + 600);
      },
    );
  });

  describe('Storage', () => {
    it('blocks public access, denies non-TLS requests and encrypts every bucket', () => {
      const buckets = template.findResources('AWS::S3::Bucket');
      expect(Object.keys(buckets).length).toBeGreaterThanOrEqual(4); // uploads, results, site, logs
      const policies = Object.values(template.findResources('AWS::S3::BucketPolicy'));
      for (const [id, bucket] of Object.entries(buckets)) {
        expect(bucket.Properties, id).toMatchObject({
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
          BucketEncryption: {
            ServerSideEncryptionConfiguration: [
              { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
            ],
          },
        });
        const policy = policies.find((p) => (p.Properties as { Bucket: { Ref: string } }).Bucket.Ref === id);
        expect(policy, `${id} has no bucket policy`).toBeDefined();
        expect(
          (policy!.Properties as { PolicyDocument: { Statement: unknown[] } }).PolicyDocument.Statement,
        ).toContainEqual(
          expect.objectContaining({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        );
      }
    });

    it('sends server access logs of the data and site buckets to the log bucket', () => {
      for (const id of ['StorageUploadsBucket', 'StorageResultsBucket', 'SiteBucket']) {
        template.hasResourceProperties('AWS::S3::Bucket', {
          BucketName: id.startsWith('Storage') ? Match.anyValue() : Match.absent(),
          LoggingConfiguration: {
            DestinationBucketName: { Ref: Match.stringLikeRegexp('^StorageLogBucket') },
          },
        });
      }
    });

    it('expires uploads/ after 7 days and aborts incomplete multipart uploads after 1 day', () => {
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp('-uploads$')])] },
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'uploads/', ExpirationInDays: 7, Status: 'Enabled' }),
            Match.objectLike({
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
              Status: 'Enabled',
            }),
          ]),
        },
      });
    });

    it('allows CORS from the site origin only: POST to uploads, GET/HEAD from results', () => {
      const siteOrigin = {
        'Fn::Join': [
          '',
          ['https://', { 'Fn::GetAtt': [Match.stringLikeRegexp('^SiteDistribution'), 'DomainName'] }],
        ],
      };
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp('-uploads$')])] },
        CorsConfiguration: {
          CorsRules: [Match.objectLike({ AllowedMethods: ['POST'], AllowedOrigins: [siteOrigin] })],
        },
      });
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp('-results$')])] },
        CorsConfiguration: {
          CorsRules: [Match.objectLike({ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: [siteOrigin] })],
        },
      });
    });
  });

  describe('Auth', () => {
    it('has an e-mail user pool with self sign-up, verification, a strong password policy and optional TOTP', () => {
      template.hasResourceProperties('AWS::Cognito::UserPool', {
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        UserPoolTier: 'ESSENTIALS',
        Policies: {
          PasswordPolicy: Match.objectLike({
            MinimumLength: 8,
            RequireLowercase: true,
            RequireUppercase: true,
            RequireNumbers: true,
            RequireSymbols: true,
          }),
        },
      });
    });

    it('has a public SRP client with 15-minute tokens, 30-day refresh and no password or OAuth flows', () => {
      template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        AllowedOAuthFlowsUserPoolClient: false,
        AccessTokenValidity: 15,
        IdTokenValidity: 15,
        RefreshTokenValidity: 30 * 24 * 60,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
        PreventUserExistenceErrors: 'ENABLED',
      });
    });
  });

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
    it('creates the Stripe, webhook and OpenAI secrets with a placeholder value', () => {
      template.resourceCountIs('AWS::SecretsManager::Secret', 3);
      template.allResourcesProperties('AWS::SecretsManager::Secret', { SecretString: SECRET_PLACEHOLDER });
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

    it('lets exactly the code that records analytics put records, and names the stream and pool to it', () => {
      const fns = appFunctions(template);
      const putters = [...fns]
        .filter(([, { logicalId }]) =>
          roleStatements(template, logicalId).some((s) => s.Action.includes('firehose:PutRecordBatch')),
        )
        .map(([id]) => id)
        .sort();
      expect(putters).toEqual(
        // The checkout module holds the fulfilment (purchase_completed), so creating a session imports it too.
        [
          'HttpAnalyticsEvents',
          'HttpCreateCheckoutSession',
          'HttpGetCheckoutSession',
          'WebhooksStripe',
        ].sort(),
      );
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

describe('HeadshotStudioStack (prod)', () => {
  let template: Template;
  let stack: HeadshotStudioStack;
  beforeAll(() => {
    ({ template, stack } = testStack({ stage: 'prod' }));
  });

  it('protects and retains the table, the user pool and the data buckets', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [{ DeletionProtectionEnabled: true }],
    });
    template.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtection: 'ACTIVE' }),
    });
    for (const suffix of ['-uploads$', '-results$']) {
      template.hasResource('AWS::S3::Bucket', {
        DeletionPolicy: 'Retain',
        Properties: Match.objectLike({
          BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp(suffix)])] },
        }),
      });
    }
    // No auto-delete custom resource may empty a prod data bucket.
    expect(JSON.stringify(template.findResources('Custom::S3AutoDeleteObjects'))).not.toMatch(
      /Storage(Uploads|Results)/,
    );
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

  it('attaches the sharp layer to the functions whose code imports sharp, and only to them', () => {
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
    expect(withLayer.length > 0).toBe(
      localFunctions.some((f) => !f.localOnly && /prepare-references|generate/.test(f.handler)),
    );
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('sharp'))).toHaveLength(0);
  });
});
