import { secretsChanged, SECRET_PLACEHOLDER, SECRET_REFRESH_MS } from './secret-values';

export { EXTENSION_SECRET_TTL_SECONDS, SECRET_REFRESH_MS, SECRET_ROTATION_BOUND_MS } from './secret-values';
import { logger } from './logger';

/**
 * Secret ARN variable → the plain variable the settings groups (`functions/config/`) read. The CDK stack sets the
 * ARNs only on the functions whose code uses the secret (infrastructure/constructs/functions.ts).
 */
const SECRETS = [
  ['STRIPE_SECRET_ARN', 'STRIPE_SECRET_KEY'],
  ['STRIPE_WEBHOOK_SECRET_ARN', 'STRIPE_WEBHOOK_SECRET'],
  ['OPENAI_API_KEY_SECRET_ARN', 'OPENAI_API_KEY'],
  ['SIGNUP_BONUS_PEPPER_SECRET_ARN', 'SIGNUP_BONUS_PEPPER'],
] as const;

/** A plain variable a secret fills. */
export type SecretVariable = (typeof SECRETS)[number][1];

/** Epoch ms before which nothing is asked again. */
let nextAttemptAt = 0;
let loading: Promise<void> | undefined;
/** Plain variables this loader filled (any other value in `process.env` came from the environment: left alone). */
const filled = new Set<string>();

async function getSecret(arn: string): Promise<string> {
  // The AWS Parameters and Secrets Lambda Extension caches values locally; it answers only during invocations.
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(arn)}`;
  const headers = { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' };
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
    response = await fetch(url, { headers });
  }
  if (!response.ok) throw new Error(`Secrets extension answered HTTP ${response.status}`);
  const body = (await response.json()) as { SecretString?: string };
  return (body.SecretString ?? '').trim();
}

/** Reads every configured secret this loader owns (not set by the environment) and puts changes in `process.env`. */
async function readAll(): Promise<void> {
  let changed = false;
  for (const [arnVariable, plainVariable] of SECRETS) {
    const arn = process.env[arnVariable];
    if (!arn) continue;
    const current = process.env[plainVariable];
    if (current && !filled.has(plainVariable)) continue;
    try {
      const value = await getSecret(arn);
      if (!value || value === SECRET_PLACEHOLDER) {
        logger.warn('Secret is not configured yet', { secret: arnVariable });
      } else if (value !== current) {
        process.env[plainVariable] = value;
        filled.add(plainVariable);
        changed = true;
        if (current) logger.info('Secret changed: using the new value', { secret: arnVariable });
      }
    } catch (error) {
      // LocalStack and `sam local` have no extension: run without the secret rather than fail every request.
      if (process.env.AWS_ENDPOINT_URL) {
        logger.warn('Secrets extension unreachable; continuing without the secret', { secret: arnVariable });
        continue;
      }
      // A value already read keeps working while the extension cannot answer a refresh.
      if (current) {
        logger.warn('Secret refresh failed; keeping the value read before', { secret: arnVariable });
        continue;
      }
      throw error;
    }
  }
  if (changed) secretsChanged();
}

/**
 * Fills `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, `OPENAI_API_KEY` and `SIGNUP_BONUS_PEPPER` from Secrets Manager (through the
 * Parameters and Secrets Lambda Extension) before the handler reads its configuration, and keeps them current: every
 * {@link SECRET_REFRESH_MS} the next invocation asks the extension again, so a key put or rotated after deploy is used
 * within {@link SECRET_ROTATION_BOUND_MS} (60 s) without a redeploy, and at once after {@link secretRejected}. When
 * a value changes, the configuration is parsed again (secret-values.ts `secretsChanged`) and the clients made from
 * it are rebuilt. A variable already set by the environment (local stack, tests) is left alone; a secret still empty
 * or `REPLACE_ME` stays unset. Values are never logged. A failed load is retried on the next invocation.
 *
 * @param now epoch ms (tests)
 * @throws {Error} when the extension cannot be reached in the cloud and a secret has no value yet.
 */
export function loadSecrets(now = Date.now()): Promise<void> {
  if (!SECRETS.some(([arn]) => process.env[arn])) return Promise.resolve();
  if (loading) return loading;
  if (now < nextAttemptAt) return Promise.resolve();
  loading = readAll()
    .then(() => {
      nextAttemptAt = now + SECRET_REFRESH_MS;
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/**
 * Records that the service refused the value of `variable` as a credential (Stripe's 401
 * `StripeAuthenticationError`, OpenAI's 401): the key was probably rotated, so the next invocation asks the
 * extension again instead of waiting out {@link SECRET_REFRESH_MS}. Does nothing for a value the environment set.
 */
export function secretRejected(variable: SecretVariable): void {
  if (!filled.has(variable)) return;
  logger.warn('A secret was refused by its service: reading it again on the next invocation', {
    secret: variable,
  });
  nextAttemptAt = 0;
}
