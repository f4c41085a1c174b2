import { parseLegalEntity, type LegalEntity } from '../../../functions/domain/legal-entity';

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
  /**
   * The company the legal pages name (deploy configuration, functions/domain/legal-entity.ts); `null`/absent locally
   * and on stages deployed without it, where the pages show their Draft notice and placeholders.
   */
  legalEntity?: LegalEntity | null;
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
  const { supportEmail, cognitoEndpoint, authFlowType, legalEntity } = input;
  if (typeof supportEmail !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(supportEmail))
    problems.push('supportEmail: an e-mail address is required');
  if (cognitoEndpoint != null && (typeof cognitoEndpoint !== 'string' || !URL.canParse(cognitoEndpoint)))
    problems.push('cognitoEndpoint: a URL or null is required');
  if (authFlowType !== undefined && (typeof authFlowType !== 'string' || !AUTH_FLOWS.includes(authFlowType)))
    problems.push(`authFlowType: one of ${AUTH_FLOWS.join(', ')} is required`);
  const legal = legalEntity == null ? undefined : parseLegalEntity(legalEntity);
  if (legal && 'problems' in legal)
    problems.push(...legal.problems.map((problem) => `legalEntity: ${problem}`));
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
  if (legalEntity !== undefined) config.legalEntity = legal && 'entity' in legal ? legal.entity : null;
  return { config };
}

/** The sign-in flow the configuration asks for; `USER_SRP_AUTH` (the Cognito default) when it says nothing. */
export function authFlowTypeOf(config: Pick<RuntimeConfig, 'authFlowType'>): AuthFlowType {
  return config.authFlowType ?? 'USER_SRP_AUTH';
}

/** Where the runtime configuration is served, relative to the site's origin. */
export const RUNTIME_CONFIG_URL = '/config.json';

/** `/config.json` could not be fetched or did not match {@link RuntimeConfig}. */
export class RuntimeConfigError extends Error {
  override readonly name = 'RuntimeConfigError';
  /**
   * Whether asking again may succeed: a network failure, an HTTP error (a CDN's 5xx or a deploy in progress) or a
   * body that is not JSON (an error page); not a configuration that is invalid, which the same file stays.
   */
  readonly transient: boolean;

  constructor(message: string, options: ErrorOptions & { transient?: boolean } = {}) {
    super(message, options);
    this.transient = options.transient ?? true;
  }
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
  if ('problems' in parsed)
    throw new RuntimeConfigError(`${url} is invalid: ${parsed.problems.join('; ')}`, { transient: false });
  return parsed.config;
}

/** Options of {@link loadRuntimeConfigWithRetry}. */
export interface RuntimeConfigRetryOptions {
  /** Requests in all, the first included (default {@link CONFIG_ATTEMPTS}). */
  attempts?: number;
  /** The wait before the second request, ms; it doubles before each next one (default {@link CONFIG_RETRY_BASE_MS}). */
  baseDelayMs?: number;
  /** The one request ({@link loadRuntimeConfig}); tests pass their own. */
  load?: () => Promise<RuntimeConfig>;
  /** Waits `ms` (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
  /** Told about each failed request that will be retried, with the wait before the next one (ms). */
  onRetry?: (error: RuntimeConfigError, delayMs: number) => void;
}

/** Requests of `/config.json` before the app gives up and offers a retry: about 7 s of waits in all. */
export const CONFIG_ATTEMPTS = 5;
/** The wait before the second request of `/config.json`, ms: then 1 s, 2 s, 4 s (each with jitter). */
export const CONFIG_RETRY_BASE_MS = 500;

/**
 * {@link loadRuntimeConfig}, asked again after a transient failure ({@link RuntimeConfigError.transient}) with
 * exponential backoff and "equal jitter" (half the wait fixed, half random, so many browsers failing at once do not
 * ask again in step: https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/). One failed request
 * on a phone's flaky connection then no longer stops the app.
 *
 * @throws RuntimeConfigError the last failure, once `attempts` requests have failed, or at once when the
 *   configuration is invalid
 */
export async function loadRuntimeConfigWithRetry(
  options: RuntimeConfigRetryOptions = {},
): Promise<RuntimeConfig> {
  const {
    attempts = CONFIG_ATTEMPTS,
    baseDelayMs = CONFIG_RETRY_BASE_MS,
    load = () => loadRuntimeConfig(),
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    random = Math.random,
    onRetry,
  } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const failure =
        error instanceof RuntimeConfigError
          ? error
          : new RuntimeConfigError(`Could not load ${RUNTIME_CONFIG_URL}`, { cause: error });
      if (!failure.transient || attempt >= attempts) throw failure;
      const ceiling = baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.round(ceiling / 2 + random() * (ceiling / 2));
      onRetry?.(failure, delayMs);
      await sleep(delayMs);
    }
  }
}
