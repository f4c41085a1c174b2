import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFunctionName } from '../../functions/catalogue';
import { routes, type RouteDefinition } from '../../functions/http/routes';
import { ensureTable, ensureUserPool } from './bootstrap';
import { startLocalPayments } from './stand-ins/stripe/local-payments';
import { startCognito } from './stand-ins/cognito/cognito-local';
import { startDynamoDb } from './stand-ins/dynamodb/dynamodb-local';
import { LocalStackError } from './support/errors';
import { COGNITO_TRIGGERS, createLambdaRuntime, localFunctions, type LocalFunction } from './stand-ins/lambda/runtime';
import { FACE_MODEL_THREADS, startFaceModelThreads } from './stand-ins/lambda/face-model-threads';
import { useFaceModelRunner } from '../../functions/adapters/support/vision-models/model-runner';
import { startGateway } from './stand-ins/api-gateway/server';
import { createCognitoJwtAuthorizer } from './stand-ins/api-gateway/jwt-authorizer';
import { startLambdaServer } from './stand-ins/lambda/invoke-api';
import { startLocalMail } from './stand-ins/ses/local-mail';
import { createPartLog } from './support/log';
import { assertPortFree, findFreePort, HOST } from './support/ports';
import { S3RVER_CREDENTIALS, startS3 } from './stand-ins/s3/s3rver';
import { LOCAL_NAMES, PORT_VARIABLES, type LocalPorts } from './support/settings';
import { startScheduler } from './stand-ins/eventbridge-scheduler/scheduler';
import { executionEndedRule, startEventBus } from './stand-ins/eventbridge/bus';
import { createAsyncInvoker } from './stand-ins/lambda/async-invoke';
import { startEventSourceMapping } from './stand-ins/lambda/event-source-mapping';
import { startSite } from './stand-ins/cloudfront/site';
import { startStepFunctionsServer, stateMachineSubstitutions } from './stand-ins/step-functions/server';
import { startSqs } from './stand-ins/sqs/fauxqs';
import {
  queues as queueCatalogue,
  validateQueues,
  type QueueDefinition,
} from '../../functions/queue-catalogue';
import { REPO_ROOT } from './support/paths';
import { forgetChildren, rememberChildren } from './support/pids';

export { REPO_ROOT } from './support/paths';

/** The local stack's sign-up bonus pepper (functions/config/signup-bonus.ts): not a secret, only for local data. */
export const LOCAL_SIGNUP_BONUS_PEPPER = 'local-dev-signup-bonus-pepper-not-for-production';
/** What the SPA reads from `/config.json` at boot; CloudFront serves the same shape in the cloud (docs/architecture.md §6). */
export interface RuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Cognito IdP endpoint override; `null` in the cloud (Amplify then uses cognito-idp.<region>.amazonaws.com). */
  cognitoEndpoint: string | null;
  /** Where the API lives, relative to the site origin: always `/api`. */
  apiBase: string;
  supportEmail: string;
  stage: string;
  /** `USER_PASSWORD_AUTH` locally (cognito-local has no SRP), `USER_SRP_AUTH` in the cloud. */
  authFlowType: 'USER_PASSWORD_AUTH' | 'USER_SRP_AUTH';
}

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  /** Port per part; 0 = any free port (tests). */
  ports: LocalPorts;
  /** Keeps data here between runs (`.local/` for `npm start`); a temporary directory, removed at stop, if omitted. */
  dataDir?: string;
  /** Also start the Vite dev server (the site). */
  withSite: boolean;
  /** Drop info log lines (tests); errors are always printed. */
  quiet?: boolean;
  /** Extra configuration for the handlers (e.g. from `.env`); the stack's own endpoints win. */
  env?: Record<string, string | undefined>;
  /** The routes to serve; the shared route table by default (tests can add a test-only route). */
  routes?: readonly RouteDefinition[];
  /** The Lambda functions the Step Functions runner and Cognito triggers may call; the whole function catalogue (`functions/catalogue.ts`) by default. */
  functions?: readonly LocalFunction[];
  /** The SQS queues to create and poll; the queue catalogue (`functions/queue-catalogue.ts`) by default (tests can add one). */
  queues?: readonly QueueDefinition[];
}

/** A running local stack. */
export interface LocalStack {
  /** `http://localhost:<PORT>` when the site runs. */
  siteUrl: string | undefined;
  /** The local mail catcher's web inbox (unless MAIL_SMTP_URL sent mail elsewhere). */
  inboxUrl: string | undefined;
  gatewayUrl: string;
  runtimeConfig: RuntimeConfig;
  /** The environment the handlers run with (also applied to `process.env`). */
  env: Record<string, string>;
  /** Stops every part, children included; safe to call twice. */
  stop(): Promise<void>;
}

async function resolvePorts(ports: LocalPorts): Promise<LocalPorts> {
  const resolved = { ...ports };
  for (const part of Object.keys(ports) as (keyof LocalPorts)[]) {
    const port = resolved[part];
    if (port === undefined) continue;
    if (port === 0) resolved[part] = await findFreePort();
    else await assertPortFree(port, part, PORT_VARIABLES[part]);
  }
  return resolved;
}

/**
 * The functions to serve: the catalogue's, plus a function for each route handler it lacks (a test-only route),
 * named by the catalogue's default rule (`http/echo` → `http-echo`).
 */
function withRouteFunctions(
  functions: readonly LocalFunction[],
  list: readonly RouteDefinition[],
): LocalFunction[] {
  const known = new Set(functions.map((f) => f.handler));
  const extra = [...new Set(list.map((r) => r.handler))].filter((handler) => !known.has(handler));
  return [
    ...functions,
    ...extra.map((handler) => ({ name: defaultFunctionName(handler), handler, timeoutSeconds: 30 })),
  ];
}

/**
 * Starts the whole product on loopback, on real AWS emulators: Amazon DynamoDB Local, s3rver, cognito-local, the
 * local Lambda invoke API, the Step Functions runner, the HTTP API gateway and (optionally) the Vite dev server with
 * `/api` proxied and `/config.json` served. Creates the table, buckets, user pool and app client when missing.
 *
 * @throws {LocalStackError} for a taken port or missing Java, with the fix.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const quiet = options.quiet ?? false;
  const log = (name: string) => createPartLog(name, { quiet });
  const stack = log('stack');
  const started = Date.now();
  const ports = await resolvePorts(options.ports);
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'headshot-studio-'));
  mkdirSync(dataDir, { recursive: true });
  const region = options.env?.AWS_REGION ?? 'us-east-1';
  const siteOrigin = `http://localhost:${ports.site}`;
  const stops: (() => Promise<void>)[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const fn of stops.reverse()) await fn().catch((e: unknown) => stack.error(String(e)));
    forgetChildren(dataDir);
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const allRoutes = options.routes ?? routes;
    const functionList = withRouteFunctions(options.functions ?? localFunctions, allRoutes);
    const functionOfHandler = new Map(functionList.map((f) => [f.handler, f.name]));
    const runtime = createLambdaRuntime(functionList);
    // The face models get threads of their own, as each cloud execution environment has its own CPU.
    const faceModels = startFaceModelThreads(FACE_MODEL_THREADS);
    const previousRunner = useFaceModelRunner(faceModels.runner);
    stops.push(async () => {
      useFaceModelRunner(previousRunner);
      await faceModels.stop();
    });
    const lambda = await startLambdaServer({ port: ports.lambda, host: HOST, runtime, log: log('lambda') });
    stops.push(() => lambda.close());

    const [dynamodb, s3, cognito] = await Promise.all([
      startDynamoDb({
        port: ports.dynamodb,
        dataDir: temporary ? undefined : join(dataDir, 'dynamodb'),
        log: log('dynamodb'),
      }),
      startS3({
        port: ports.s3,
        dataDir: join(dataDir, 's3'),
        buckets: [LOCAL_NAMES.uploadsBucket, LOCAL_NAMES.resultsBucket],
        corsOrigins: [siteOrigin, `http://127.0.0.1:${ports.site}`],
        log: log('s3'),
      }),
      startCognito({
        port: ports.cognito,
        dataDir: join(dataDir, 'cognito'),
        log: log('cognito'),
        lambdaEndpoint: lambda.url,
        triggers: COGNITO_TRIGGERS,
      }),
    ]);
    stops.push(dynamodb.stop, s3.stop, cognito.stop);
    rememberChildren(dataDir, [dynamodb.process, s3.process, cognito.process]);

    const [, pool] = await Promise.all([
      ensureTable({ endpoint: dynamodb.endpoint, region, tableName: LOCAL_NAMES.table }),
      ensureUserPool({
        endpoint: cognito.endpoint,
        region,
        stateFile: join(dataDir, 'stack-state.json'),
        poolName: LOCAL_NAMES.userPool,
        tokenLifetimeSeconds: tokenLifetimeSeconds(options.env?.LOCAL_TOKEN_LIFETIME_SECONDS),
      }),
    ]);

    // --- Payments: the local Checkout provider stands in for Stripe unless STRIPE_SECRET_KEY is set;
    // its API base and a fresh webhook secret go to the handlers, its signed webhooks to the gateway.
    const payments = await startLocalPayments({
      configuredEnv: options.env,
      port: ports.checkout,
      dataDir: join(dataDir, 'checkout'),
      gatewayUrl: `http://${HOST}:${ports.gateway}`,
      log: log('checkout'),
    });
    if (payments) stops.push(payments.stop);
    // --- end Payments

    // --- Mail: the handlers' SES client sends the "headshots ready" e-mail to the SES v2 stand-in, which relays it
    // over SMTP to the local mail catcher (or to the server .env's MAIL_SMTP_URL names).
    const mail = await startLocalMail({
      configuredEnv: options.env,
      sesPort: ports.ses,
      smtpPort: ports.mailSmtp,
      webPort: ports.mailWeb,
      region,
      log: log('mail'),
    });
    stops.push(mail.stop);

    // --- Queues: fauxqs with the catalogue's queues and their dead-letter queues; each URL reaches the handlers as
    // <NAME>_QUEUE_URL (functions/queue-catalogue.ts).
    const queueList = options.queues ?? queueCatalogue;
    validateQueues(
      queueList,
      new Map(functionList.map((f) => [f.name, { timeoutSeconds: f.timeoutSeconds ?? 3 }])),
    );
    const sqs = await startSqs({
      port: ports.sqs ?? 0,
      host: HOST,
      region,
      queues: queueList,
      credentials: S3RVER_CREDENTIALS,
      log: log('sqs'),
    });
    stops.push(sqs.stop);
    // --- end Queues

    const stepfunctionsUrl = `http://${HOST}:${ports.stepfunctions}`;
    const env: Record<string, string> = {
      ...Object.fromEntries(
        Object.entries(options.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      // Business metrics (EMF lines) are for CloudWatch; locally they would only clutter the log.
      POWERTOOLS_METRICS_DISABLED: options.env?.POWERTOOLS_METRICS_DISABLED ?? 'true',
      ...payments?.env,
      ...mail.env,
      // A fixed dev pepper keys the sign-up bonus markers (the cloud's is a generated secret), so a local data dir
      // kept across runs still knows who claimed.
      SIGNUP_BONUS_PEPPER: options.env?.SIGNUP_BONUS_PEPPER ?? LOCAL_SIGNUP_BONUS_PEPPER,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SFN: stepfunctionsUrl,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      ...sqs.env,
      AWS_ENDPOINT_URL_LAMBDA: lambda.url,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      TABLE_NAME: LOCAL_NAMES.table,
      UPLOADS_BUCKET: LOCAL_NAMES.uploadsBucket,
      RESULTS_BUCKET: LOCAL_NAMES.resultsBucket,
      SITE_ORIGIN: siteOrigin,
      COGNITO_USER_POOL_ID: pool.userPoolId,
      COGNITO_CLIENT_ID: pool.userPoolClientId,
      COGNITO_ENDPOINT: cognito.endpoint,
      // Product analytics land in <data dir>/analytics/<date>.jsonl (`.local/analytics` for npm start).
      ANALYTICS_DIR: options.env?.ANALYTICS_DIR ?? join(dataDir, 'analytics'),
    };
    // Handlers run in this process and read their configuration from process.env at their cold start.
    Object.assign(process.env, env);

    // EventBridge's default bus: the Step Functions stand-in puts its execution status changes on it, and the
    // execution-ended rule hands the ones the cloud rule matches to the compensator, with Lambda's asynchronous
    // retries; what fails every run lands in <data dir>/dead-letter/ (`.local/dead-letter/` for npm start).
    const eventsLog = log('events');
    const bus = startEventBus({
      rules: [executionEndedRule({ region, deadLetterDir: join(dataDir, 'dead-letter'), log: eventsLog })],
      invoker: createAsyncInvoker(runtime, { log: eventsLog }),
      log: eventsLog,
    });
    stops.push(bus.stop);

    const stateMachinesDir = join(REPO_ROOT, 'statemachines');
    const stepfunctions = await startStepFunctionsServer({
      port: ports.stepfunctions,
      host: HOST,
      runtime,
      stateMachinesDir,
      substitutions: stateMachineSubstitutions(
        functionList.map((f) => f.name),
        region,
        env,
      ),
      region,
      events: bus,
      log: log('stepfn'),
    });
    stops.push(() => stepfunctions.close());
    const machines = readdirSync(stateMachinesDir).filter((f) => f.endsWith('.asl.json'));
    if (machines.some((f) => f === 'generation.asl.json')) {
      env.STATE_MACHINE_ARN = stepfunctions.stateMachineArn('generation');
      process.env.STATE_MACHINE_ARN = env.STATE_MACHINE_ARN;
    }

    // Lambda's SQS event source mappings: each catalogue queue polled for its consumer, with its batch settings.
    const sqsLog = log('sqs');
    const mappings = [...sqs.queues.values()].map((queue) =>
      startEventSourceMapping({ queue, client: sqs.client, runtime, region, log: sqsLog }),
    );
    stops.push(async () => {
      for (const mapping of mappings) mapping.stop();
    });

    // EventBridge Scheduler's stand-in: the scheduled catalogue functions (the generation sweeper) on their rate.
    const scheduler = startScheduler({ functions: functionList, runtime, log: log('schedule') });
    stops.push(scheduler.stop);

    const authorizer = await createCognitoJwtAuthorizer({
      cognitoEndpoint: cognito.endpoint,
      userPoolId: pool.userPoolId,
      clientId: pool.userPoolClientId,
    });
    const gateway = await startGateway({
      port: ports.gateway,
      routes: allRoutes,
      authorizer,
      invoke: (route, event) => runtime.invoke(functionOfHandler.get(route.handler)!, event),
      log: log('api'),
    });
    stops.push(gateway.stop);

    const runtimeConfig: RuntimeConfig = {
      region,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      cognitoEndpoint: cognito.endpoint,
      apiBase: '/api',
      supportEmail: env.SUPPORT_EMAIL ?? 'support@headshot.studio',
      stage: 'local',
      authFlowType: 'USER_PASSWORD_AUTH',
    };

    let siteUrl: string | undefined;
    if (options.withSite) {
      const site = await startSite({
        port: ports.site,
        gatewayUrl: gateway.url,
        runtimeConfig,
        log: log('web'),
      });
      stops.push(site.stop);
      siteUrl = site.url;
    }
    stack.info(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { siteUrl, inboxUrl: mail.inboxUrl, gatewayUrl: gateway.url, runtimeConfig, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Lifetime of the local pool's access and ID tokens, in seconds: `LOCAL_TOKEN_LIFETIME_SECONDS`, default 900 (the
 * 15 minutes of the cloud client). Short lifetimes let tests watch the SPA refresh its session.
 *
 * @throws {LocalStackError} for a value that is not a whole number of seconds from 35 to 86400
 */
export function tokenLifetimeSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 900;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 35 || seconds > 86_400) {
    throw new LocalStackError(
      `LOCAL_TOKEN_LIFETIME_SECONDS is "${value}".`,
      'Set it to a whole number of seconds from 35 to 86400 in .env, or remove it (default 900).',
    );
  }
  return seconds;
}

export { LocalStackError };
