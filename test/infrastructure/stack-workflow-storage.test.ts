import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { deployedFunctions } from '../../functions/catalogue';
import { functionArnKey, pascalCase } from '../../infrastructure/constructs/naming';
import { substitutionKeys, definitionTimeoutSeconds } from '../../infrastructure/constructs/workflow';
import { generationTimeBudget } from '../../functions/domain/generation-deadline';
import { GENERATION_ASL } from '../../infrastructure/stack';
import { appFunctions, devStack, getAttTarget } from './helpers';

describe('HeadshotStudioStack (dev)', () => {
  const { template } = devStack();

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
        const tasks = deployedFunctions.filter(
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
        // The definition's TimeoutSeconds is ${ExecutionTimeoutSeconds}: GENERATION_DEADLINE_MINUTES (30), the slot's
        // Tasks' timeouts (270 s for the default model's call + 90 s FinishHeadshot) and the finishing steps (300 s),
        // from generation-deadline.ts.
        const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
        const values = machine!.Properties!.DefinitionSubstitutions as Record<string, string>;
        expect(values.ExecutionTimeoutSeconds).toBe(
          String(generationTimeBudget(30, 270 + 90).executionTimeoutSeconds),
        );
        expect(definitionTimeoutSeconds(readFileSync(GENERATION_ASL, 'utf8'), values)).toBe(
          30 * 60 + 270 + 90 + 300,
        );
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

    it('has a public SRP client with 15-minute tokens, 30-day rotating refresh and no password or OAuth flows', () => {
      template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        GenerateSecret: false,
        // Rotation on: each refresh (GetTokensFromRefreshToken) returns a new refresh token and the old one stops
        // working after the grace period; Cognito requires ALLOW_REFRESH_TOKEN_AUTH off with it (issue 26).
        ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH'],
        RefreshTokenRotation: { Feature: 'ENABLED', RetryGracePeriodSeconds: 30 },
        AllowedOAuthFlowsUserPoolClient: false,
        AccessTokenValidity: 15,
        IdTokenValidity: 15,
        RefreshTokenValidity: 30 * 24 * 60,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
        PreventUserExistenceErrors: 'ENABLED',
      });
    });
  });
});
