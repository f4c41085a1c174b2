import { defaultFunctionName } from '../../../functions/catalogue';
import type { RouteDefinition } from '../../../functions/http/routes';
import { useFaceModelRunner } from '../../../functions/adapters/support/vision-models/model-runner';
import type { RouteInvoker } from '../stand-ins/api-gateway/server';
import { FACE_MODEL_THREADS, startFaceModelThreads } from '../stand-ins/lambda/face-model-threads';
import { startLambdaServer } from '../stand-ins/lambda/invoke-api';
import { createLambdaRuntime, type LambdaRuntime, type LocalFunction } from '../stand-ins/lambda/runtime';
import type { IamCheck } from '../iam/caller';
import { HOST } from '../support/ports';
import type { PartLogs, Teardown } from './lifecycle';

/** The functions of the local stack, running: what the event sources, the workflow and the gateway invoke. */
export interface FunctionsRuntime {
  /** Every function served: the catalogue's (or the test's) plus one per extra route handler. */
  functions: readonly LocalFunction[];
  runtime: LambdaRuntime;
  /** The local Lambda Invoke API (`AWS_ENDPOINT_URL_LAMBDA`, cognito-local's trigger endpoint). */
  lambdaUrl: string;
  /** Runs the function that serves a route (the gateway's integration). */
  invokeRoute: RouteInvoker;
}

/**
 * The functions to serve: the catalogue's, plus a function for each route handler it lacks (a test-only route),
 * named by the catalogue's default rule (`http/echo` → `http-echo`), with API Gateway's 30 s integration timeout.
 */
export function withRouteFunctions(
  functions: readonly LocalFunction[],
  routes: readonly RouteDefinition[],
): LocalFunction[] {
  const known = new Set(functions.map((f) => f.handler));
  const extra = [...new Set(routes.map((r) => r.handler))].filter((handler) => !known.has(handler));
  return [
    ...functions,
    ...extra.map((handler) => ({ name: defaultFunctionName(handler), handler, timeoutSeconds: 30 })),
  ];
}

/**
 * Starts Lambda's stand-in: the in-process runtime of `functions` (plus the routes' extra handlers, with `iam` checking
 * their AWS calls), the face-model threads the vision code runs its models on, and the Lambda Invoke API on `port`. Each stop is registered with
 * `teardown` as soon as its part runs.
 */
export async function startFunctionsRuntime(
  options: {
    functions: readonly LocalFunction[];
    routes: readonly RouteDefinition[];
    port: number;
    logs: PartLogs;
    /** Checks each function's AWS calls against its role (infrastructure/local/iam/); none: unchecked. */
    iam?: IamCheck;
  },
  teardown: Teardown,
): Promise<FunctionsRuntime> {
  const functions = withRouteFunctions(options.functions, options.routes);
  const functionOfHandler = new Map(functions.map((f) => [f.handler, f.name]));
  const runtime = createLambdaRuntime(functions, { iam: options.iam });
  // The face models get threads of their own, as each cloud execution environment has its own CPU.
  const faceModels = startFaceModelThreads(FACE_MODEL_THREADS);
  const previousRunner = useFaceModelRunner(faceModels.runner);
  teardown.add(async () => {
    useFaceModelRunner(previousRunner);
    await faceModels.stop();
  });
  const lambda = await startLambdaServer({
    port: options.port,
    host: HOST,
    runtime,
    log: options.logs('lambda'),
  });
  teardown.add(() => lambda.close());
  return {
    functions,
    runtime,
    lambdaUrl: lambda.url,
    // Every route's handler has a function: withRouteFunctions added the ones the catalogue lacks.
    invokeRoute: (route, event) => runtime.invoke(functionOfHandler.get(route.handler)!, event),
  };
}
