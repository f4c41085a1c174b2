import type { RouteDefinition } from '../../../functions/http/routes';
import { createCognitoJwtAuthorizer } from '../stand-ins/api-gateway/jwt-authorizer';
import { startGateway } from '../stand-ins/api-gateway/server';
import { localRuntimeConfig, type RuntimeConfig } from '../stand-ins/cloudfront/runtime-config';
import { startSite } from '../stand-ins/cloudfront/site';
import type { Emulators } from './emulators';
import type { FunctionsRuntime } from './functions-runtime';
import type { PartLogs, Teardown } from './lifecycle';

/** What the browser talks to, running. */
export interface Web {
  /** The HTTP API's stand-in, `http://127.0.0.1:<gateway port>`. */
  gatewayUrl: string;
  /** `http://localhost:<site port>`, when the site was asked for. */
  siteUrl: string | undefined;
  /** What the site serves as `/config.json`. */
  runtimeConfig: RuntimeConfig;
}

/**
 * Starts what the browser talks to: API Gateway's stand-in on `ports.gateway` (the HTTP API serving `routes`, each
 * route's function run by the local runtime, its JWT authorizer checking tokens of the local user pool) and, when
 * `withSite`, CloudFront's: the Vite dev server on `ports.site` with `/api` proxied to the gateway and
 * `/config.json` served from memory.
 *
 * @param supportEmail the handlers' SUPPORT_EMAIL, which the SPA shows too
 */
export async function startWeb(
  options: {
    ports: { gateway: number; site: number };
    withSite: boolean;
    routes: readonly RouteDefinition[];
    functions: FunctionsRuntime;
    emulators: Emulators;
    region: string;
    supportEmail: string | undefined;
    logs: PartLogs;
  },
  teardown: Teardown,
): Promise<Web> {
  const { ports, emulators } = options;
  const authorizer = await createCognitoJwtAuthorizer({
    cognitoEndpoint: emulators.cognitoEndpoint,
    userPoolId: emulators.pool.userPoolId,
    clientId: emulators.pool.userPoolClientId,
  });
  const gateway = await startGateway({
    port: ports.gateway,
    routes: options.routes,
    authorizer,
    invoke: options.functions.invokeRoute,
    log: options.logs('api'),
  });
  teardown.add(gateway.stop);

  const runtimeConfig = localRuntimeConfig({
    region: options.region,
    pool: emulators.pool,
    cognitoEndpoint: emulators.cognitoEndpoint,
    supportEmail: options.supportEmail,
  });
  if (!options.withSite) return { gatewayUrl: gateway.url, siteUrl: undefined, runtimeConfig };
  const site = await startSite({
    port: ports.site,
    gatewayUrl: gateway.url,
    runtimeConfig,
    log: options.logs('web'),
  });
  teardown.add(site.stop);
  return { gatewayUrl: gateway.url, siteUrl: site.url, runtimeConfig };
}
