/** A Cognito sign-in flow the SPA can use with a password. */
export type AuthFlowType = 'USER_PASSWORD_AUTH' | 'USER_SRP_AUTH';

/**
 * Settings the SPA reads at boot from `/config.json`. The same build serves every stage: the local stack writes this
 * file at start-up, the CDK Site construct at deploy time.
 */
export interface RuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Only set locally (cognito-local); `null`/absent means the real Cognito endpoint of `region`. */
  cognitoEndpoint?: string | null;
  /** Where the HTTP API is mounted on the site's own origin, normally `/api`. */
  apiBase: string;
  supportEmail: string;
  stage: string;
  /**
   * How the SPA signs in to Cognito: `USER_SRP_AUTH` in the cloud, `USER_PASSWORD_AUTH` locally (cognito-local has
   * no SRP). Absent means `USER_SRP_AUTH`; see {@link authFlowTypeOf}.
   */
  authFlowType?: AuthFlowType;
}

const REQUIRED_TEXT = ['region', 'userPoolId', 'userPoolClientId', 'apiBase', 'stage'] as const;
const AUTH_FLOWS: readonly string[] = ['USER_PASSWORD_AUTH', 'USER_SRP_AUTH'];

/**
 * Checks a parsed `/config.json` against {@link RuntimeConfig} and keeps only its keys (a newer config never breaks an
 * older bundle). Written out rather than with a schema library: this file is produced by our own deploy, and the
 * check runs before the first page can hydrate, where zod would add 14 KB gzip to the first page's JavaScript.
 *
 * @returns the settings, or the list of problems (`field: what is wrong`)
 */
export function parseRuntimeConfig(body: unknown): { config: RuntimeConfig } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problems: ['not an object'] };
  const input = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of REQUIRED_TEXT) {
    if (typeof input[key] !== 'string' || input[key] === '')
      problems.push(`${key}: a non-empty string is required`);
  }
  const { supportEmail, cognitoEndpoint, authFlowType } = input;
  if (typeof supportEmail !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail))
    problems.push('supportEmail: an e-mail address is required');
  if (cognitoEndpoint != null && (typeof cognitoEndpoint !== 'string' || !URL.canParse(cognitoEndpoint)))
    problems.push('cognitoEndpoint: a URL or null is required');
  if (authFlowType !== undefined && (typeof authFlowType !== 'string' || !AUTH_FLOWS.includes(authFlowType)))
    problems.push(`authFlowType: one of ${AUTH_FLOWS.join(', ')} is required`);
  if (problems.length) return { problems };
  const config: RuntimeConfig = {
    region: input.region as string,
    userPoolId: input.userPoolId as string,
    userPoolClientId: input.userPoolClientId as string,
    apiBase: input.apiBase as string,
    supportEmail: supportEmail as string,
    stage: input.stage as string,
  };
  if (cognitoEndpoint !== undefined) config.cognitoEndpoint = cognitoEndpoint as string | null;
  if (authFlowType !== undefined) config.authFlowType = authFlowType as AuthFlowType;
  return { config };
}

/** The sign-in flow the configuration asks for; `USER_SRP_AUTH` (the Cognito default) when it says nothing. */
export function authFlowTypeOf(config: Pick<RuntimeConfig, 'authFlowType'>): AuthFlowType {
  return config.authFlowType ?? 'USER_SRP_AUTH';
}

/** Where the runtime configuration is served, relative to the site's origin. */
export const RUNTIME_CONFIG_URL = '/config.json';

/** `/config.json` could not be fetched or did not match {@link runtimeConfigSchema}. */
export class RuntimeConfigError extends Error {
  override readonly name = 'RuntimeConfigError';
}

/**
 * Fetches and validates the runtime configuration. Never cached by the browser: a deploy may change it while the
 * hashed bundle stays the same.
 */
export async function loadRuntimeConfig(
  fetchImpl: typeof fetch = globalThis.fetch,
  url: string = RUNTIME_CONFIG_URL,
): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new RuntimeConfigError(`Could not reach ${url}`, { cause });
  }
  if (!response.ok) throw new RuntimeConfigError(`${url} answered HTTP ${response.status}`);

  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new RuntimeConfigError(`${url} is not JSON`, { cause });
  }
  const parsed = parseRuntimeConfig(body);
  if ('problems' in parsed) throw new RuntimeConfigError(`${url} is invalid: ${parsed.problems.join('; ')}`);
  return parsed.config;
}
