import { fileURLToPath } from 'node:url';
import { resetConfigForTests } from '../../functions/config';
import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { functionNameOf } from '../../functions/catalogue';
import { routes } from '../../functions/http/routes';
import {
  createLambdaRuntime,
  localFunctions,
  type LambdaRuntime,
  type LocalFunction,
} from '../../infrastructure/local/functions';
import { startGateway, type RunningGateway } from '../../infrastructure/local/stand-ins/api-gateway/server';
import { createCognitoJwtAuthorizer } from '../../infrastructure/local/stand-ins/api-gateway/jwt-authorizer';
import { createPartLog } from '../../infrastructure/local/support/log';
import {
  startStepFunctionsServer,
  stateMachineSubstitutions,
  type StepFunctionsServer,
} from '../../infrastructure/local/stand-ins/step-functions/server';

/*
 * A generation stack of the test's own, in the test process: the route handlers behind a local gateway, the task
 * functions of the catalogue in a local Lambda runtime, and the real statemachines/ on a local Step Functions
 * server — all on the shared emulators (DynamoDB Local, s3rver, cognito-local) of the integration setup. Because
 * the handlers run in this process, the test chooses their configuration (e.g. the `openai` provider pointed at a
 * fake OpenAI server it controls).
 */

const STATE_MACHINES = fileURLToPath(new URL('../../statemachines/', import.meta.url));

/** A running test-owned generation stack. */
export interface GenerationStack {
  gatewayUrl: string;
  stepfunctions: StepFunctionsServer;
  /**
   * Resolves once no function invocation is running. A stopped execution's tasks keep running in the background (as
   * Lambda invocations do when Step Functions stops waiting): a test that stops one awaits this before asserting.
   */
  settled(): Promise<void>;
  /** Waits for running invocations (at most 30 s), then stops the gateway and the Step Functions server. */
  stop(): Promise<void>;
}

/** Wraps a runtime so the test can wait for every invocation in flight, including those nobody awaits any more. */
function trackInvocations(runtime: LambdaRuntime): { runtime: LambdaRuntime; settled: () => Promise<void> } {
  const inflight = new Set<Promise<void>>();
  return {
    runtime: {
      ...runtime,
      invoke(nameOrArn, event, options) {
        const invocation = runtime.invoke(nameOrArn, event, options);
        const done = invocation.then(
          () => undefined,
          () => undefined,
        );
        inflight.add(done);
        void done.then(() => inflight.delete(done));
        return invocation;
      },
    },
    async settled() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
  };
}

/**
 * Starts the stack with `env` applied to `process.env` first (handlers read their config at first use), then
 * points `STATE_MACHINE_ARN` and the SFN endpoint at its own Step Functions server.
 */
export async function startGenerationStack(options: {
  env: Record<string, string>;
  userPoolId: string;
  clientId: string;
}): Promise<GenerationStack> {
  // Unlimited provider capacity and the default deadline unless the test says otherwise.
  Object.assign(
    process.env,
    { PROVIDER_IMAGES_PER_MINUTE: '0', PROVIDER_MAX_CONCURRENCY: '0', GENERATION_DEADLINE_MINUTES: '30' },
    options.env,
  );
  const log = createPartLog('gen-test', { quiet: true });
  const functions = localFunctions;
  const { runtime, settled } = trackInvocations(createLambdaRuntime(functions));
  const stepfunctions = await startStepFunctionsServer({
    port: 0,
    runtime,
    stateMachinesDir: STATE_MACHINES,
    substitutions: stateMachineSubstitutions(
      functions.map((f) => f.name),
      'us-east-1',
      process.env,
    ),
    log,
  });
  process.env.AWS_ENDPOINT_URL_SFN = stepfunctions.url;
  process.env.STATE_MACHINE_ARN = stepfunctions.stateMachineArn('generation');
  resetConfigForTests();
  resetImageProviderForTests();

  const authorizer = await createCognitoJwtAuthorizer({
    cognitoEndpoint: process.env.COGNITO_ENDPOINT ?? '',
    userPoolId: options.userPoolId,
    clientId: options.clientId,
  });
  const gateway: RunningGateway = await startGateway({
    port: 0,
    routes,
    authorizer,
    invoke: (route, event) => runtime.invoke(functionNameOf(route.handler), event),
    log,
  });
  return {
    gatewayUrl: gateway.url,
    stepfunctions,
    settled,
    async stop() {
      await Promise.race([settled(), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await gateway.stop();
      await stepfunctions.close();
    },
  };
}

export {
  openAiErrors,
  startFakeOpenAi,
  type EditAnswer,
  type EditCall,
  type FakeOpenAi,
  type RateLimit,
} from '../../infrastructure/local/stand-ins/openai/server';
