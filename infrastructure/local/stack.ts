import { routes as routeTable, type RouteDefinition } from '../../functions/http/routes';
import { queues as queueCatalogue, type QueueDefinition } from '../../functions/queue-catalogue';
import type { RuntimeConfig } from './stand-ins/cloudfront/runtime-config';
import { localFunctions, type LocalFunction } from './stand-ins/lambda/runtime';
import { LocalStackError } from './support/errors';
import { createPartLog } from './support/log';
import { HOST, resolvePorts } from './support/ports';
import type { LocalPorts } from './support/settings';
import { startEmulators } from './parts/emulators';
import { startEventSources } from './parts/event-sources';
import { startFunctionsRuntime } from './parts/functions-runtime';
import { localIamCheck, localIamDisabled } from './iam/local-check';
import { handlerEnvironment } from './parts/handler-env';
import { createTeardown, openDataDir, type PartLogs } from './parts/lifecycle';
import { startStandIns } from './parts/stand-ins';
import { startWeb } from './parts/web';
import { startWorkflow } from './parts/workflow';

export { REPO_ROOT } from './support/paths';
export type { RuntimeConfig } from './stand-ins/cloudfront/runtime-config';
export { LocalStackError };

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

/**
 * Starts the whole product on loopback, on real AWS emulators: Amazon DynamoDB Local, s3rver, cognito-local, the
 * local Lambda invoke API, the Step Functions runner, the HTTP API gateway and (optionally) the Vite dev server with
 * `/api` proxied and `/config.json` served. Creates the table, buckets, user pool and app client when missing.
 * Each part is started by a module of `parts/`; a part that fails to start stops the ones before it.
 *
 * @throws {LocalStackError} for a taken port or missing Java, with the fix.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const logs: PartLogs = (part) => createPartLog(part, { quiet: options.quiet ?? false });
  const log = logs('stack');
  const started = Date.now();
  const ports = await resolvePorts(options.ports);
  const dataDir = openDataDir(options.dataDir);
  const teardown = createTeardown(log, dataDir.close);
  const region = options.env?.AWS_REGION ?? 'us-east-1';
  const siteOrigin = `http://localhost:${ports.site}`;
  const routes = options.routes ?? routeTable;
  // IAM as the cloud enforces it (docs/decisions/016-local-iam.md): the roles load (or synthesize) beside the start.
  const iam = localIamDisabled(options.env) ? undefined : localIamCheck({ log: logs('iam') });
  if (iam) {
    teardown.add(async () => {
      const { requests, cached, simulatedMs } = iam.stats();
      logs('iam').info(
        `${requests} IAM requests decided, ${cached} from the cache, ${simulatedMs.toFixed(0)} ms simulating`,
      );
    });
  }
  try {
    const functions = await startFunctionsRuntime(
      { functions: options.functions ?? localFunctions, routes, port: ports.lambda, logs, iam },
      teardown,
    );
    const emulators = await startEmulators(
      {
        ports,
        dataDir,
        region,
        siteOrigins: [siteOrigin, `http://127.0.0.1:${ports.site}`],
        lambdaUrl: functions.lambdaUrl,
        tokenLifetime: options.env?.LOCAL_TOKEN_LIFETIME_SECONDS,
        logs,
        iam,
      },
      teardown,
    );
    const standIns = await startStandIns(
      {
        configuredEnv: options.env,
        ports,
        dataDir,
        region,
        gatewayUrl: `http://${HOST}:${ports.gateway}`,
        functions: functions.functions,
        queues: options.queues ?? queueCatalogue,
        logs,
      },
      teardown,
    );
    const env = handlerEnvironment({
      configuredEnv: options.env,
      emulators,
      standIns,
      lambdaUrl: functions.lambdaUrl,
      stepfunctionsUrl: `http://${HOST}:${ports.stepfunctions}`,
      region,
      siteOrigin,
      dataDir: dataDir.path,
    });
    const workflow = await startWorkflow(
      { port: ports.stepfunctions, functions, region, env, dataDir, logs },
      teardown,
    );
    Object.assign(env, workflow.env);
    // Handlers run in this process and read their configuration from process.env at their cold start.
    Object.assign(process.env, env);
    startEventSources({ functions, sqs: standIns.sqs, region, logs }, teardown);

    const web = await startWeb(
      {
        ports,
        withSite: options.withSite,
        routes,
        functions,
        emulators,
        region,
        supportEmail: env.SUPPORT_EMAIL,
        logs,
      },
      teardown,
    );
    await iam?.ready;
    log.info(
      `ready in ${((Date.now() - started) / 1000).toFixed(1)} s${iam ? '' : ' (LOCAL_IAM=off: AWS calls unchecked)'}`,
    );
    return { ...web, inboxUrl: standIns.inboxUrl, env, stop: teardown.run };
  } catch (error) {
    await teardown.run();
    throw error;
  }
}
