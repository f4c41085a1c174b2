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
  /** The company the legal pages name: always `null` locally, so they show their Draft notice (as on dev). */
  legalEntity: null;
  stage: string;
  /** `USER_PASSWORD_AUTH` locally (cognito-local has no SRP), `USER_SRP_AUTH` in the cloud. */
  authFlowType: 'USER_PASSWORD_AUTH' | 'USER_SRP_AUTH';
}

/**
 * The local stack's runtime configuration: stage `local`, the local pool on cognito-local with USER_PASSWORD_AUTH,
 * and the handlers' SUPPORT_EMAIL (default `support@headshot.studio`, as in the cloud).
 */
export function localRuntimeConfig(options: {
  region: string;
  pool: { userPoolId: string; userPoolClientId: string };
  cognitoEndpoint: string;
  supportEmail: string | undefined;
}): RuntimeConfig {
  return {
    region: options.region,
    userPoolId: options.pool.userPoolId,
    userPoolClientId: options.pool.userPoolClientId,
    cognitoEndpoint: options.cognitoEndpoint,
    apiBase: '/api',
    supportEmail: options.supportEmail ?? 'support@headshot.studio',
    legalEntity: null,
    stage: 'local',
    authFlowType: 'USER_PASSWORD_AUTH',
  };
}
