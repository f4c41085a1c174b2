import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Aws, Fn } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { RouteAuth, RouteDefinition } from '../../functions/http/routes';
import type { LocalFunction } from '../local/functions';
import { accessFor, type FunctionAccess, type ObjectAccess } from './access';
import {
  AppFunction,
  ARCHITECTURE,
  handlerEntry,
  moduleGraph,
  NATIVE_MODULES,
  RUNTIME,
  type FunctionKind,
} from './app-function';
import type { Analytics } from './analytics';
import { acknowledgeWildcardResources } from './nag';
import { pascalCase } from './naming';
import { SECRET_ENV, type Secrets } from './secrets';
import { RESULTS_PREFIX, UPLOADS_PREFIX } from './storage';

/** Item-level DynamoDB actions: everything the single-table design uses, and no `Scan` (docs/architecture.md §2). */
export const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

const OBJECT_ACTIONS: Record<Exclude<ObjectAccess, 'list'>, string> = {
  read: 's3:GetObject',
  write: 's3:PutObject',
  delete: 's3:DeleteObject',
};

/** Properties of {@link Functions}. */
export interface FunctionsProps {
  /** The API route table (`functions/http/routes.ts`): one function per distinct handler module. */
  routes: readonly RouteDefinition[];
  /** The non-HTTP catalogue (`infrastructure/local/functions.ts`): every entry that is not `localOnly`. */
  catalogue: readonly LocalFunction[];
  /** Variables every function gets (table, buckets, site settings). */
  environment: Record<string, string>;
  /** Only functions that read the OpenAI key get these (IMAGE_PROVIDER, OPENAI_IMAGE_MODEL). */
  openAiEnvironment: Record<string, string>;
  table: ITableV2;
  uploads: s3.IBucket;
  results: s3.IBucket;
  secrets: Secrets;
  logRetention: logs.RetentionDays;
  /**
   * A directory laid out as a Lambda layer (`nodejs/node_modules/sharp`, `nodejs/node_modules/@img/sharp-linux-arm64`)
   * for handlers that import sharp. Missing: those functions are deployed without it, with a synth warning.
   */
  nativeLayerDir?: string;
  stubCode?: boolean;
  functionsDir?: string;
}

/** One deployed function and what it may touch. */
export interface DeployedFunction {
  name: string;
  handler: string;
  kind: FunctionKind;
  access: FunctionAccess;
  fn: AppFunction;
}

/**
 * Every deployed Lambda function: one per distinct handler module of the route table (named after the module,
 * `http/me` → `http-me`, as the local stack names them) and one per catalogue entry that is not `localOnly`
 * (`cognito-*` → Cognito triggers, anything else → workflow tasks). Each gets the common environment and the grants
 * of {@link accessFor}; the state machine grants come later with {@link Functions.grantWorkflow}.
 */
export class Functions extends Construct {
  /** Route handler functions by handler module (`http/me`). */
  readonly http = new Map<string, DeployedFunction>();
  /** Catalogue functions by name (`cognito-post-confirmation`, `generation-build-prompt`). */
  readonly catalogue = new Map<string, DeployedFunction>();
  private readonly props: FunctionsProps;
  private nativeLayer?: lambda.LayerVersion;

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    this.props = props;

    const authByHandler = new Map<string, RouteAuth[]>();
    for (const route of props.routes) {
      authByHandler.set(route.handler, [...(authByHandler.get(route.handler) ?? []), route.auth]);
    }
    for (const [handler, routeAuth] of authByHandler) {
      const name = handler.replaceAll('/', '-');
      this.http.set(handler, this.create({ name, handler, kind: 'http', routeAuth }));
    }
    for (const entry of props.catalogue) {
      if (entry.localOnly) continue;
      const kind: FunctionKind = entry.name.startsWith('cognito-') ? 'trigger' : 'task';
      if ([...this.http.values()].some((f) => f.name === entry.name)) {
        throw new Error(`Function name ${entry.name} is used by both a route handler and the catalogue`);
      }
      this.catalogue.set(entry.name, this.create({ ...entry, kind }));
    }
  }

  /** Every deployed function. */
  get all(): DeployedFunction[] {
    return [...this.http.values(), ...this.catalogue.values()];
  }

  /** Sets a variable on every function (values known only after other constructs exist, e.g. SITE_ORIGIN). */
  addEnvironment(key: string, value: string): void {
    for (const { fn } of this.all) fn.function.addEnvironment(key, value);
  }

  /** Sets a variable on every route handler (e.g. the user pool ids, which Cognito triggers must not depend on). */
  addHttpEnvironment(key: string, value: string): void {
    for (const { fn } of this.http.values()) fn.function.addEnvironment(key, value);
  }

  /** Lets the functions whose code records analytics put records into the stream, and names it to them. */
  grantAnalytics(analytics: Analytics): void {
    for (const { fn, access } of this.all) {
      if (!access.analytics) continue;
      fn.function.addEnvironment('ANALYTICS_STREAM_NAME', analytics.stream.deliveryStreamName);
      analytics.grantPut(fn.role);
    }
  }

  /**
   * Lets the functions whose access says `workflow` start executions of the state machine and read their status,
   * and tells them its ARN (`STATE_MACHINE_ARN`).
   */
  grantWorkflow(stateMachine: sfn.StateMachine): void {
    for (const { fn, access } of this.all) {
      if (!access.workflow) continue;
      fn.function.addEnvironment('STATE_MACHINE_ARN', stateMachine.stateMachineArn);
      stateMachine.grantStartExecution(fn.role);
      const executions = executionArnPattern(stateMachine);
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: ['states:DescribeExecution'], resources: [executions] }),
      );
      acknowledgeWildcardResources(
        fn.role,
        [executions],
        'DescribeExecution is granted on the executions of this one state machine; execution names (generation ids) are only known at run time.',
      );
    }
  }

  private create(spec: {
    name: string;
    handler: string;
    kind: FunctionKind;
    routeAuth?: RouteAuth[];
    timeoutSeconds?: number;
    memorySize?: number;
  }): DeployedFunction {
    const { props } = this;
    const graph = moduleGraph(handlerEntry(spec.handler, props.functionsDir));
    const access = accessFor({ ...spec, packages: graph.packages, sdkImports: graph.sdkImports });
    const environment: Record<string, string> = { ...props.environment };
    for (const secret of access.secrets) {
      environment[SECRET_ENV[secret].arnVariable] = props.secrets.secrets[secret].secretArn;
    }
    if (access.secrets.includes('openAiApiKey')) Object.assign(environment, props.openAiEnvironment);

    const needsNative = graph.packages.some((p) => (NATIVE_MODULES as readonly string[]).includes(p));
    const fn = new AppFunction(this, pascalCase(spec.name), {
      name: spec.name,
      handler: spec.handler,
      kind: spec.kind,
      timeoutSeconds: spec.timeoutSeconds,
      memorySize: spec.memorySize,
      environment,
      logRetention: props.logRetention,
      nativeLayer: needsNative ? this.getNativeLayer(spec.name) : undefined,
      secretsExtension: access.secrets.length > 0,
      stubCode: props.stubCode,
      functionsDir: props.functionsDir,
    });
    this.grant(fn, access);
    return { name: spec.name, handler: spec.handler, kind: spec.kind, access, fn };
  }

  private getNativeLayer(functionName: string): lambda.LayerVersion | undefined {
    if (this.nativeLayer) return this.nativeLayer;
    const dir = this.props.nativeLayerDir;
    const modules = dir && join(dir, 'nodejs', 'node_modules');
    if (!modules || !existsSync(join(modules, 'sharp', 'package.json'))) {
      Annotations.of(this).addWarningV2(
        'headshot-studio:native-layer-missing',
        `${functionName} imports sharp, which esbuild cannot bundle, and no sharp layer was found at ` +
          `${dir ?? '(none)'}: build it before deploying (README, "Deploy to AWS"), or the function fails at run time.`,
      );
      return undefined;
    }
    if (!existsSync(join(modules, '@img', 'sharp-linux-arm64', 'package.json'))) {
      Annotations.of(this).addWarningV2(
        'headshot-studio:native-layer-platform',
        `The sharp layer at ${dir} has no @img/sharp-linux-arm64: install it with --os=linux --cpu=arm64 --libc=glibc.`,
      );
    }
    this.nativeLayer = new lambda.LayerVersion(this, 'SharpLayer', {
      code: lambda.Code.fromAsset(dir!),
      compatibleArchitectures: [ARCHITECTURE],
      compatibleRuntimes: [RUNTIME],
      description: 'sharp and libvips for linux-arm64 (glibc)',
    });
    return this.nativeLayer;
  }

  private grant(fn: AppFunction, access: FunctionAccess): void {
    const { props } = this;
    const role = fn.role;
    if (access.table) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: TABLE_ACTIONS, resources: [props.table.tableArn] }),
      );
    }
    const objectGrant = (bucket: s3.IBucket, prefix: string, ops: ObjectAccess[], why: string) => {
      const actions = ops.filter((op) => op !== 'list').map((op) => OBJECT_ACTIONS[op]);
      if (actions.length > 0) {
        const objects = `${bucket.bucketArn}/${prefix}*`;
        role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [objects] }));
        acknowledgeWildcardResources(role, [objects], why);
      }
      if (ops.includes('list')) {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [bucket.bucketArn],
            conditions: { StringLike: { 's3:prefix': [`${prefix}*`] } },
          }),
        );
      }
    };
    objectGrant(
      props.uploads,
      UPLOADS_PREFIX,
      access.uploads,
      'Object keys are uploads/<user sub>/…, chosen per request; the grant stops at the uploads/ prefix and the handler scopes keys to the caller.',
    );
    objectGrant(
      props.results,
      RESULTS_PREFIX,
      access.results,
      'Result keys are results/<user sub>/<generation>/…, chosen at run time; the grant stops at the results/ prefix and the handler scopes keys to the caller.',
    );
    for (const secret of access.secrets) props.secrets.secrets[secret].grantRead(role);
  }
}

/** `arn:<partition>:states:<region>:<account>:execution:<state machine name>:*`. */
function executionArnPattern(stateMachine: sfn.StateMachine): string {
  const name = Fn.select(6, Fn.split(':', stateMachine.stateMachineArn));
  return Fn.join('', [
    'arn:',
    Aws.PARTITION,
    ':states:',
    Aws.REGION,
    ':',
    Aws.ACCOUNT_ID,
    ':execution:',
    name,
    ':*',
  ]);
}
