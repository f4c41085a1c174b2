import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { FunctionEntry } from '../../functions/catalogue';
import { EXTENSION_SECRET_TTL_SECONDS } from '../../functions/common/secret-values';
import { installedVisionFiles } from '../../functions/adapters/support/vision-models/assets';
import { BUNDLE_ALIASES, ESM_REQUIRE_BANNER, NATIVE_MODULES } from './bundling';
import { acknowledgeWildcardResources } from './nag';
import { handlerEntry, moduleGraph } from './module-graph';
import { pascalCase, REPO_ROOT } from './naming';

/**
 * The one runtime and architecture of every function: Node 24 LTS, the Node the project runs on locally and in CI
 * (`.nvmrc`), so the code is tested on the runtime Lambda runs (docs/architecture.md, cloud). It is the newest Node
 * runtime CDK knows, so cdk-nag's AwsSolutions-L1 (latest runtime) passes without an acknowledgement.
 */
export const RUNTIME = lambda.Runtime.NODEJS_24_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;

export { ESM_REQUIRE_BANNER, NATIVE_MODULES } from './bundling';

/** Where a vision function's bundle carries its models and wasm (the Lambda package is extracted to /var/task). */
export const VISION_ASSETS_DIR = '/var/task/vision';

/**
 * Shell commands (esbuild's `afterBundling` hook) that copy exactly the model files and wasm binaries the vision
 * module loads — about 9 MB of the 200 MB the model packages install — into the bundle's `vision/` folder.
 */
export function visionCopyCommands(inputDir: string, outputDir: string): string[] {
  const files = installedVisionFiles(join(inputDir, 'node_modules'));
  return [
    `mkdir -p "${join(outputDir, 'vision', 'models')}" "${join(outputDir, 'vision', 'wasm')}"`,
    ...files.map(({ from, to }) => `cp "${from}" "${join(outputDir, 'vision', to)}"`),
  ];
}

/**
 * esbuild settings of every bundle (ESM for top-level await; minified; linked source maps without sources; the
 * aliases of ./bundling.ts, e.g. no node-fetch beside Node's own fetch).
 */
const BUNDLING = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  bundleAwsSDK: true,
  esbuildArgs: Object.fromEntries(
    Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to]),
  ),
};

/** Code of stub functions (`stubCode`): synth-only, for fast assertions; never deployed. */
const STUB_CODE =
  "exports.handler = async () => { throw new Error('stub code: synthesized with the stubFunctionCode context'); };";

/** Properties of {@link AppFunction}. */
export interface AppFunctionProps {
  /**
   * The function's catalogue entry (`functions/catalogue.ts`): name, handler module under `functionsDir`, kind,
   * timeout, memory and assets (`vision-models` copies the models into the bundle; `sharp-layer` leaves the native
   * modules external for the layer).
   */
  entry: Pick<FunctionEntry, 'name' | 'handler' | 'kind' | 'timeoutSeconds' | 'memorySize' | 'assets'>;
  environment?: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** The layer that provides the native modules ({@link NATIVE_MODULES}) for linux-arm64, when one is available. */
  nativeLayer?: lambda.ILayerVersion;
  /** Adds the AWS Parameters and Secrets Lambda Extension (functions that read Secrets Manager secrets). */
  secretsExtension?: boolean;
  /** Inline stub code instead of an esbuild bundle: for fast tests only. */
  stubCode?: boolean;
  /** Where handler modules live. Default: the repository's `functions/`. */
  functionsDir?: string;
  /** An explicit function name (the LocalStack profile, where docs/local-stack.md invokes functions by name). */
  functionName?: string;
  /**
   * A `node_modules` folder whose packages are copied into the bundle instead of coming from the native layer
   * (Lambda layers are a LocalStack Pro feature): the sharp layer's `nodejs/node_modules`.
   */
  bundledNativeModulesFrom?: string;
}

/**
 * One Lambda function with Headshot Studio's defaults: Node 24 on arm64, an esbuild bundle (ESM, minified, source
 * maps enabled with `NODE_OPTIONS=--enable-source-maps`, the AWS SDK bundled so its version is the one we test),
 * its own log group with retention, active X-Ray tracing, and a role that can write only to its own log group —
 * every other permission is granted explicitly by the caller.
 *
 * The CloudFormation resource carries `SamResourceId` metadata (`HttpMe`, `CognitoPostConfirmation`, …), so
 * `sam local invoke -t cdk.out/<stack>.template.json HttpMe -e test/events/http/me.json` finds it.
 */
export class AppFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  /** Native modules the handler imports (found by following its relative imports). */
  readonly nativeModules: string[];
  /** The name SAM and the docs use for this function. */
  readonly samResourceId: string;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const { name, handler, kind } = props.entry;
    const entry = handlerEntry(handler, props.functionsDir);
    this.nativeModules = props.entry.assets.includes('sharp-layer') ? [...NATIVE_MODULES] : [];
    this.samResourceId = pascalCase(name);
    const vision = props.entry.assets.includes('vision-models');

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Headshot Studio ${name}: logs, traces and the grants its handler needs`,
    });
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.logGroup.grantWrite(this.role);

    const common: lambda.FunctionOptions & { runtime: lambda.Runtime } = {
      functionName: props.functionName,
      runtime: RUNTIME,
      architecture: ARCHITECTURE,
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      timeout: Duration.seconds(props.entry.timeoutSeconds),
      memorySize: props.entry.memorySize,
      description: `Headshot Studio ${kind} function ${name} (functions/${handler}.ts)`,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...(vision ? { VISION_ASSETS_DIR } : {}),
        ...props.environment,
      },
      layers: props.nativeLayer ? [props.nativeLayer] : [],
      paramsAndSecrets: props.secretsExtension
        ? lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103, {
            logLevel: lambda.ParamsAndSecretsLogLevel.WARN,
            // With the handlers' refresh, a rotated key is used within a minute (functions/common/secret-values.ts).
            secretsManagerTtl: Duration.seconds(EXTENSION_SECRET_TTL_SECONDS),
          })
        : undefined,
    };

    this.function = props.stubCode
      ? new lambda.Function(this, 'Function', {
          ...common,
          code: lambda.Code.fromInline(STUB_CODE),
          handler: 'index.handler',
        })
      : new NodejsFunction(this, 'Function', {
          ...common,
          entry,
          handler: 'handler',
          projectRoot: REPO_ROOT,
          depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
          bundling: {
            ...BUNDLING,
            externalModules: [...this.nativeModules],
            tsconfig: join(REPO_ROOT, 'tsconfig.json'),
            assetHash: bundleHash(entry, {
              ...BUNDLING,
              externalModules: this.nativeModules,
              vision,
              bundledNativeModulesFrom: props.bundledNativeModulesFrom,
            }),
            ...(vision || (props.bundledNativeModulesFrom && this.nativeModules.length > 0)
              ? {
                  commandHooks: {
                    beforeBundling: () => [],
                    beforeInstall: () => [],
                    afterBundling: (inputDir: string, outputDir: string) => [
                      ...(vision ? visionCopyCommands(inputDir, outputDir) : []),
                      ...(props.bundledNativeModulesFrom && this.nativeModules.length > 0
                        ? [
                            `mkdir -p "${join(outputDir, 'node_modules')}"`,
                            `cp -R "${props.bundledNativeModulesFrom}/." "${join(outputDir, 'node_modules')}/"`,
                          ]
                        : []),
                    ],
                  },
                }
              : {}),
          },
        });

    (this.function.node.defaultChild as lambda.CfnFunction).addMetadata('SamResourceId', this.samResourceId);

    acknowledgeWildcardResources(
      this.role,
      ['*'],
      'X-Ray PutTraceSegments/PutTelemetryRecords (added by active tracing) do not support resource-level permissions.',
    );
  }
}

/**
 * A content hash of everything that goes into a handler's bundle: its source files, the lockfile (every package
 * version), the tsconfig, esbuild's version and the bundling settings. Used as the asset hash, so `cdk synth`
 * re-bundles only the functions whose inputs changed (an existing `cdk.out/asset.<hash>` is reused); delete
 * `cdk.out` to force a full re-bundle.
 */
export function bundleHash(entry: string, settings: unknown): string {
  const hash = createHash('sha256');
  const { files } = moduleGraph(entry);
  const inputs = [...files, join(REPO_ROOT, 'package-lock.json'), join(REPO_ROOT, 'tsconfig.json')];
  for (const file of inputs) {
    hash.update(`${relative(REPO_ROOT, file)}\0`);
    hash.update(existsSync(file) ? readFileSync(file) : '(missing)');
    hash.update('\0');
  }
  hash.update(JSON.stringify({ esbuild: esbuildVersion(), runtime: RUNTIME.name, settings }));
  return hash.digest('hex');
}

function esbuildVersion(): string {
  const manifest = join(REPO_ROOT, 'node_modules', 'esbuild', 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : '?';
}
