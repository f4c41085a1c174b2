import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { deployedFunctions, type FunctionEntry } from '../functions/catalogue';
import { DEFAULT_DEADLINE_MINUTES, generationTimeBudget } from '../functions/domain/generation-deadline';
import {
  FINISH_TASK_SECONDS,
  providerTimeoutsOf,
  slotTaskTimeoutSeconds,
} from '../functions/domain/provider-timeouts';
import { AppFunction } from './constructs/app-function';
import { TTL_ATTRIBUTE } from './constructs/data';
import { grantDeclaredAccess } from './constructs/functions';
import { REPO_ROOT, stackOutput, tagStage } from './constructs/naming';
import { Workflow } from './constructs/workflow';
import { GENERATION_ASL, IncompleteBuildError } from './stack';

/**
 * What this profile deploys: resource types LocalStack's free (community) image runs. Not here, because they are
 * LocalStack Pro features: Cognito user pools (and so the JWT authorizer), API Gateway v2 HTTP APIs, CloudFront and
 * WAF, Lambda layers (the sharp layer and the Parameters and Secrets extension); nor Firehose/Glue/Athena analytics,
 * EventBridge schedules and rules, or alarms, which add nothing to trying the handlers.
 */
export const LOCALSTACK_RESOURCE_TYPES = [
  'AWS::DynamoDB::Table',
  'AWS::S3::Bucket',
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::Lambda::Function',
  'AWS::Logs::LogGroup',
  'AWS::StepFunctions::StateMachine',
  // CDK's version report, which LocalStack accepts and ignores.
  'AWS::CDK::Metadata',
] as const;

/** Properties of {@link LocalStackStack}. */
export interface LocalStackStackProps extends StackProps {
  stage: string;
  /** Inline stub code instead of esbuild bundles (template-only tests). */
  stubFunctionCode?: boolean;
  /** The sharp layer directory (`npm run build:layers`): its modules are copied into the bundles that need sharp. */
  nativeLayerDir?: string;
  functions?: readonly FunctionEntry[];
}

/** `HeadshotStudio-local-http-packs`: the name docs/local-stack.md invokes (`awslocal lambda invoke --function-name …`). */
export function localStackFunctionName(stackName: string, entry: Pick<FunctionEntry, 'name'>): string {
  return `${stackName}-${entry.name}`;
}

/**
 * The `-c target=localstack` profile: the table, the two buckets, every catalogue function (same code, sizes and
 * declared grants; the offline image provider; path-style S3) and the generation state machine, for LocalStack's
 * community image (docs/architecture.md, local stack). Functions are invoked directly with the sample events of
 * `test/events/`; Stripe and OpenAI stay unconfigured (no secrets without the extension layer).
 *
 * @throws {IncompleteBuildError} for real code without the sharp layer (the image tasks and photo checks need it).
 */
export class LocalStackStack extends Stack {
  readonly functions = new Map<string, AppFunction>();
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: LocalStackStackProps) {
    super(scope, id, props);
    tagStage(this, props.stage);
    const entries = props.functions ?? deployedFunctions;
    const modules = join(
      props.nativeLayerDir ?? join(REPO_ROOT, 'dist', 'layers', 'sharp'),
      'nodejs',
      'node_modules',
    );
    const needsSharp = entries.filter((f) => f.assets.includes('sharp-layer')).map((f) => f.name);
    if (
      !props.stubFunctionCode &&
      needsSharp.length > 0 &&
      !existsSync(join(modules, 'sharp', 'package.json'))
    ) {
      throw new IncompleteBuildError(
        `Refusing to synthesize without the sharp modules ${needsSharp.join(', ')} need: ${modules} is missing — ` +
          'run `npm run build:layers` (docs/local-stack.md, "Run with LocalStack").',
      );
    }

    // A classic table (LocalStack's CloudFormation knows AWS::DynamoDB::Table best) with the cloud table's keys.
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'SK', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const bucket = (name: string) =>
      new s3.Bucket(this, name, { removalPolicy: RemovalPolicy.DESTROY, enforceSSL: false });
    const uploads = bucket('Uploads');
    const results = bucket('Results');
    const deadlineMinutes = DEFAULT_DEADLINE_MINUTES;
    const timeBudget = generationTimeBudget(deadlineMinutes, providerTimeoutsOf({}).slotSeconds);

    for (const entry of entries) {
      const fn = new AppFunction(this, entry.name, {
        entry,
        functionName: localStackFunctionName(this.stackName, entry),
        environment: {
          STAGE: props.stage,
          TABLE_NAME: this.table.tableName,
          UPLOADS_BUCKET: uploads.bucketName,
          RESULTS_BUCKET: results.bucketName,
          S3_FORCE_PATH_STYLE: 'true',
          IMAGE_PROVIDER: 'local',
          GENERATION_DEADLINE_MINUTES: String(deadlineMinutes),
          LOG_LEVEL: 'INFO',
        },
        logRetention: logs.RetentionDays.ONE_WEEK,
        stubCode: props.stubFunctionCode,
        bundledNativeModulesFrom: modules,
      });
      grantDeclaredAccess(
        fn.role,
        { ...entry, access: { ...entry.access, secrets: [] } },
        { table: this.table, uploads, results },
      );
      this.functions.set(entry.name, fn);
    }

    const workflow = new Workflow(this, 'Workflow', {
      definitionFile: GENERATION_ASL,
      functions: new Map([...this.functions].map(([name, f]) => [name, f.function])),
      values: {
        TableName: this.table.tableName,
        UploadsBucket: uploads.bucketName,
        ResultsBucket: results.bucketName,
        MaxConcurrency: '6',
        ExecutionTimeoutSeconds: String(timeBudget.executionTimeoutSeconds),
        GenerateHeadshotTimeoutSeconds: String(slotTaskTimeoutSeconds({})),
        FinishHeadshotTimeoutSeconds: String(FINISH_TASK_SECONDS),
      },
      maxTimeoutSeconds: timeBudget.executionTimeoutSeconds,
      logRetention: logs.RetentionDays.ONE_WEEK,
    });
    for (const [name, fn] of this.functions) {
      const calls = deployedFunctions.find((f) => f.name === name)?.access.stateMachine ?? [];
      if (calls.length > 0)
        fn.function.addEnvironment('STATE_MACHINE_ARN', workflow.stateMachine.stateMachineArn);
      if (calls.includes('start')) workflow.stateMachine.grantStartExecution(fn.role);
    }

    stackOutput(this, 'TableName', this.table.tableName);
    stackOutput(this, 'UploadsBucketName', uploads.bucketName);
    stackOutput(this, 'ResultsBucketName', results.bucketName);
  }
}
