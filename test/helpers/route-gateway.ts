import { inject } from 'vitest';
import { functionNameOf } from '../../functions/catalogue';
import type { RouteDefinition } from '../../functions/http/routes';
import { createLambdaRuntime, type LambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import { createCognitoJwtAuthorizer } from '../../infrastructure/local/stand-ins/api-gateway/jwt-authorizer';
import {
  startGateway,
  type RouteInvoker,
  type RunningGateway,
} from '../../infrastructure/local/stand-ins/api-gateway/server';
import { createPartLog } from '../../infrastructure/local/support/log';

/*
 * A gateway of the test file's own, in the test process, in front of the shared local stack's user pool: the same
 * local API Gateway stand-in and Cognito JWT authorizer `npm start` runs, serving only the routes the test names, so
 * the test decides what the handlers see (their configuration, a Checkout provider of its own…).
 */

/** An in-process Lambda runtime holding the handler of every route in `routes`. */
export function routeRuntime(routes: readonly RouteDefinition[]): LambdaRuntime {
  const handlers = [...new Set(routes.map((r) => r.handler))];
  return createLambdaRuntime(
    handlers.map((handler) => ({ name: functionNameOf(handler), handler, timeoutSeconds: 30 })),
  );
}

/** Runs each route's handler in `runtime`. */
const runtimeInvoker =
  (runtime: LambdaRuntime): RouteInvoker =>
  (route, event) =>
    runtime.invoke(functionNameOf(route.handler), event);

/**
 * Starts a quiet gateway on a free loopback port serving `routes`, with the shared stack's Cognito JWT authorizer
 * (`inject('localStack')`). Each request runs the route's handler in `runtime` (default: a runtime of `routes`), or
 * `invoke` when given (a test that records the events it gets).
 */
export async function startRouteGateway(options: {
  routes: readonly RouteDefinition[];
  runtime?: LambdaRuntime;
  invoke?: RouteInvoker;
}): Promise<RunningGateway> {
  const { env, runtimeConfig } = inject('localStack');
  return startGateway({
    port: 0,
    routes: options.routes,
    authorizer: await createCognitoJwtAuthorizer({
      cognitoEndpoint: env.COGNITO_ENDPOINT!,
      userPoolId: runtimeConfig.userPoolId,
      clientId: runtimeConfig.userPoolClientId,
    }),
    invoke: options.invoke ?? runtimeInvoker(options.runtime ?? routeRuntime(options.routes)),
    log: createPartLog('api', { quiet: true }),
  });
}
