import * as z from 'zod';

/**
 * The shape of `/config.json`. The same build serves every stage: the local stack writes this file at start-up,
 * the CDK Site construct at deploy time. Unknown keys are dropped so a newer config never breaks an older bundle.
 */
export const runtimeConfigSchema = z.object({
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  /** Only set locally (cognito-local); `null`/absent means the real Cognito endpoint of `region`. */
  cognitoEndpoint: z.url().nullish(),
  /** Where the HTTP API is mounted on the site's own origin, normally `/api`. */
  apiBase: z.string().min(1),
  supportEmail: z.email(),
  stage: z.string().min(1),
  /**
   * How the SPA signs in to Cognito: `USER_SRP_AUTH` in the cloud, `USER_PASSWORD_AUTH` locally (cognito-local has
   * no SRP). Absent means `USER_SRP_AUTH`; see {@link authFlowTypeOf}.
   */
  authFlowType: z.enum(['USER_PASSWORD_AUTH', 'USER_SRP_AUTH']).optional(),
});

/** Settings the SPA reads at boot from `/config.json`. */
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The sign-in flow the configuration asks for; `USER_SRP_AUTH` (the Cognito default) when it says nothing. */
export function authFlowTypeOf(config: Pick<RuntimeConfig, 'authFlowType'>): AuthFlowType {
  return config.authFlowType ?? 'USER_SRP_AUTH';
}

/** A Cognito sign-in flow the SPA can use with a password. */
export type AuthFlowType = NonNullable<RuntimeConfig['authFlowType']>;

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
  const parsed = runtimeConfigSchema.safeParse(body);
  if (!parsed.success) {
    throw new RuntimeConfigError(`${url} is invalid: ${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
