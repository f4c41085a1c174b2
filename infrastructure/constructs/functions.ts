import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, Fn } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FunctionEntry, ObjectAccess } from '../../functions/catalogue';
import type { RouteDefinition } from '../../functions/http/routes';
import { AppFunction, ARCHITECTURE, RUNTIME } from './app-function';
import type { Analytics } from './analytics';
import { cognitoActions, objectActions, STATE_MACHINE_ACTIONS, tableActions } from './grants';
import { acknowledgeWildcardResources } from './nag';
import { pascalCase } from './naming';
import { SECRET_ENV, type Secrets } from './secrets';
import { PARTIAL_PREFIX, RESULTS_PREFIX, UPLOADS_PREFIX, WORK_PREFIX } from './storage';
import { SynthRefusal } from './refusal';

/** Properties of {@link Functions}. */
export interface FunctionsProps {
  /** The function catalogue (`functions/catalogue.ts`): every entry that is not `localOnly` is deployed. */
  functions: readonly FunctionEntry[];
  /** The API route table: each route's handler must be a catalogued `http` or `webhook` function. */
  routes: readonly RouteDefinition[];
  /** Variables every function gets (table, buckets, site settings). */
  environment: Record<string, string>;
  /** Only functions that read the OpenAI key get these (the image provider's settings). */
  openAiEnvironment: Record<string, string>;
  table: ITableV2;
  uploads: s3.IBucket;
  results: s3.IBucket;
  secrets: Secrets;
  logRetention: logs.RetentionDays;
  /**
   * A directory laid out as a Lambda layer (`nodejs/node_modules/sharp`, `nodejs/node_modules/@img/sharp-linux-arm64`)
   * for the functions that declare the `sharp-layer` asset.
   */
  nativeLayerDir?: string;
  stubCode?: boolean;
  functionsDir?: string;
}

/** One deployed function: its catalogue entry and its Lambda function. */
export interface DeployedFunction {
  entry: FunctionEntry;
  fn: AppFunction;
}

/** Why the sharp layer is missing, for the error synth raises when real code would be bundled without it. */
export class MissingSharpLayerError extends SynthRefusal {
  override readonly name = 'MissingSharpLayerError';
}

/**
 * Every deployed Lambda function, one per catalogue entry that is not `localOnly`, named as the catalogue names it.
 * Each gets the common environment and exactly the grants its entry declares (`access`); the state machine, analytics
 * and user pool grants come later, once those exist ({@link grantWorkflow}, {@link grantAnalytics},
 * {@link grantUserPool}).
 *
 * @throws {Error} when a route's handler is not a catalogued `http`/`webhook` function.
 * @throws {MissingSharpLayerError} when real code (not stub code) needs the sharp layer and `nativeLayerDir` lacks it.
 */
export class Functions extends Construct {
  /** Every deployed function by name (`http-me`, `generation-build-prompt`). */
  readonly byName = new Map<string, DeployedFunction>();
  /** Route handler functions by handler module (`http/me`). */
  readonly http = new Map<string, DeployedFunction>();
  private readonly props: FunctionsProps;
  private nativeLayer?: lambda.LayerVersion;

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    this.props = props;
    for (const entry of props.functions) {
      if (entry.localOnly) continue;
      if (this.byName.has(entry.name)) throw new Error(`Two catalogue functions are named ${entry.name}`);
      const deployed = this.create(entry);
      this.byName.set(entry.name, deployed);
      if (entry.kind === 'http' || entry.kind === 'webhook') this.http.set(entry.handler, deployed);
    }
    for (const route of props.routes) {
      if (!this.http.has(route.handler)) {
        throw new Error(
          `Route ${route.method} ${route.path}: its handler ${route.handler} is not an http or webhook function of ` +
            'the catalogue (functions/catalogue.ts): add an entry with its access',
        );
      }
    }
  }

  /** Every deployed function. */
  get all(): DeployedFunction[] {
    return [...this.byName.values()];
  }

  /** The function called `name`, if it is deployed. */
  get(name: string): DeployedFunction | undefined {
    return this.byName.get(name);
  }

  /** Sets a variable on every function (values known only after other constructs exist, e.g. SITE_ORIGIN). */
  addEnvironment(key: string, value: string): void {
    for (const { fn } of this.all) fn.function.addEnvironment(key, value);
  }

  /** Sets a variable on every route handler (e.g. the user pool ids, which Cognito triggers must not depend on). */
  addHttpEnvironment(key: string, value: string): void {
    for (const { fn } of this.http.values()) fn.function.addEnvironment(key, value);
  }

  /** Lets the functions that declare `analytics` put records into the stream, and names it to them. */
  grantAnalytics(analytics: Analytics): void {
    for (const { fn, entry } of this.all) {
      if (!entry.access.analytics) continue;
      fn.function.addEnvironment('ANALYTICS_STREAM_NAME', analytics.stream.deliveryStreamName);
      analytics.grantPut(fn.role);
    }
  }

  /**
   * Lets the functions that declare `stateMachine` access start executions of the state machine, describe its
   * executions and/or answer its waiting Tasks' tokens, as declared, and tells them its ARN (`STATE_MACHINE_ARN`).
   */
  grantWorkflow(stateMachine: sfn.StateMachine): void {
    for (const { fn, entry } of this.all) {
      const calls = entry.access.stateMachine ?? [];
      if (calls.length === 0) continue;
      fn.function.addEnvironment('STATE_MACHINE_ARN', stateMachine.stateMachineArn);
      if (calls.includes('start')) {
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: [STATE_MACHINE_ACTIONS.start],
            resources: [stateMachine.stateMachineArn],
          }),
        );
      }
      // SendTaskSuccess/Failure/Heartbeat on this state machine (the provider dispatcher resumes waiting slots).
      if (calls.includes('callback')) stateMachine.grantTaskResponse(fn.role);
      if (calls.includes('describe')) {
        const executions = executionArnPattern(stateMachine);
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({ actions: [STATE_MACHINE_ACTIONS.describe], resources: [executions] }),
        );
        acknowledgeWildcardResources(
          fn.role,
          [executions],
          'DescribeExecution is granted on the executions of this one state machine; execution names (generation ids) are only known at run time.',
        );
      }
    }
  }

  /** Lets the functions that declare `cognito` calls make them, on this user pool only. */
  grantUserPool(userPoolArn: string): void {
    for (const { fn, entry } of this.all) {
      const actions = cognitoActions(entry.access.cognito);
      if (actions.length === 0) continue;
      fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [userPoolArn] }));
    }
  }

  private create(entry: FunctionEntry): DeployedFunction {
    const { props } = this;
    const secrets = entry.access.secrets ?? [];
    const environment: Record<string, string> = { ...props.environment };
    for (const secret of secrets) {
      environment[SECRET_ENV[secret].arnVariable] = props.secrets.secrets[secret].secretArn;
    }
    if (secrets.includes('openAiApiKey')) Object.assign(environment, props.openAiEnvironment);

    const fn = new AppFunction(this, pascalCase(entry.name), {
      entry,
      environment,
      logRetention: props.logRetention,
      nativeLayer: entry.assets.includes('sharp-layer') ? this.getNativeLayer(entry.name) : undefined,
      secretsExtension: secrets.length > 0,
      stubCode: props.stubCode,
      functionsDir: props.functionsDir,
    });
    this.grant(fn, entry);
    return { entry, fn };
  }

  private getNativeLayer(functionName: string): lambda.LayerVersion | undefined {
    if (this.nativeLayer) return this.nativeLayer;
    const dir = this.props.nativeLayerDir;
    const modules = dir && join(dir, 'nodejs', 'node_modules');
    const complete =
      modules &&
      existsSync(join(modules, 'sharp', 'package.json')) &&
      existsSync(join(modules, '@img', 'sharp-linux-arm64', 'package.json'));
    if (!complete) {
      // Stub code never runs: a template-only synth may do without the layer.
      if (this.props.stubCode) return undefined;
      throw new MissingSharpLayerError(
        `${functionName} needs the sharp layer (sharp and @img/sharp-linux-arm64 for Lambda's linux-arm64), and ` +
          `${dir ?? '(no sharpLayerDir)'} does not hold it: run \`npm run build:layers\` before \`cdk synth\`/\`cdk deploy\` ` +
          '(docs/deploy.md); without it the function would fail at run time.',
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

  private grant(fn: AppFunction, entry: FunctionEntry): void {
    grantDeclaredAccess(fn.role, entry, this.props);
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

/**
 * Grants `role` exactly what a catalogue entry declares on the table, the two buckets (under their prefixes: `uploads/`,
 * `results/` and `work/`) and the
 * secrets; the state machine, analytics and user pool grants are {@link Functions}' (they exist later).
 */
export function grantDeclaredAccess(
  role: iam.IRole,
  entry: FunctionEntry,
  props: { table: { tableArn: string }; uploads: s3.IBucket; results: s3.IBucket; secrets?: Secrets },
): void {
  const { access } = entry;
  const table = tableActions(access.table);
  if (table.length > 0) {
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: table, resources: [props.table.tableArn] }));
  }
  const objectGrant = (
    bucket: s3.IBucket,
    prefix: string,
    ops: readonly ObjectAccess[] = [],
    why: string,
  ) => {
    const actions = objectActions(ops);
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
  objectGrant(
    props.results,
    WORK_PREFIX,
    access.work,
    'Provider images wait under work/<user sub>/<generation>/<slot>, chosen at run time; the grant stops at the work/ prefix, which no customer-facing function is granted.',
  );
  objectGrant(
    props.results,
    PARTIAL_PREFIX,
    access.partial,
    'A streaming slot keeps its latest partial image under partial/<user sub>/<generation>/<slot>, chosen at run time; the grant stops at the partial/ prefix, read only by the generation view to presign it.',
  );
  for (const secret of access.secrets ?? []) props.secrets?.secrets[secret].grantRead(role);
}
