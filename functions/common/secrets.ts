import { secretsChanged, SECRET_PLACEHOLDER } from './secret-values';
import { logger } from './logger';

/**
 * Secret ARN variable → the plain variable the settings groups (`functions/config/`) read. The CDK stack sets the
 * ARNs only on the functions whose code uses the secret (infrastructure/constructs/access.ts).
 */
const SECRETS = [
  ['STRIPE_SECRET_ARN', 'STRIPE_SECRET_KEY'],
  ['STRIPE_WEBHOOK_SECRET_ARN', 'STRIPE_WEBHOOK_SECRET'],
  ['OPENAI_API_KEY_SECRET_ARN', 'OPENAI_API_KEY'],
] as const;

/**
 * How long a secret found missing (or still the placeholder) is trusted to stay so, in ms: after it, the next
 * invocation asks the extension again, so an operator's `put-secret-value` reaches running environments within a
 * minute instead of never.
 */
export const MISSING_SECRET_TTL_MS = 60_000;

/** Set once every configured secret is in `process.env`: nothing left to read for this environment. */
let complete = false;
/** Epoch ms before which a missing secret is not asked for again. */
let nextAttemptAt = 0;
let loading: Promise<void> | undefined;

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

/** Reads every configured secret not yet in `process.env`; returns how many are still missing. */
async function loadMissing(): Promise<number> {
  let missing = 0;
  let arrived = false;
  for (const [arnVariable, plainVariable] of SECRETS) {
    const arn = process.env[arnVariable];
    if (!arn || process.env[plainVariable]) continue;
    try {
      const value = await getSecret(arn);
      if (value && value !== SECRET_PLACEHOLDER) {
        process.env[plainVariable] = value;
        arrived = true;
      } else {
        missing += 1;
        logger.warn('Secret is not configured yet', { secret: arnVariable });
      }
    } catch (error) {
      // LocalStack and `sam local` have no extension: run without the secret rather than fail every request.
      if (process.env.AWS_ENDPOINT_URL) {
        logger.warn('Secrets extension unreachable; continuing without the secret', { secret: arnVariable });
        missing += 1;
        continue;
      }
      throw error;
    }
  }
  if (arrived) secretsChanged();
  return missing;
}

/**
 * Fills `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET` and `OPENAI_API_KEY` from Secrets Manager (through the
 * Parameters and Secrets Lambda Extension) before the handler reads its configuration. A variable already set
 * (local stack, tests) is left alone. A secret still empty or holding `REPLACE_ME` stays unset and is asked for
 * again after {@link MISSING_SECRET_TTL_MS}; when it arrives, the configuration is parsed again
 * (secret-values.ts `secretsChanged`). Once all are present nothing is read any more. Values are never logged. A failed
 * load is retried on the next invocation.
 *
 * @param now epoch ms (tests)
 * @throws {Error} when the extension cannot be reached in the cloud.
 */
export function loadSecrets(now = Date.now()): Promise<void> {
  if (complete || !SECRETS.some(([arn]) => process.env[arn])) return Promise.resolve();
  if (loading) return loading;
  if (now < nextAttemptAt) return Promise.resolve();
  loading = loadMissing()
    .then((missing) => {
      complete = missing === 0;
      nextAttemptAt = now + MISSING_SECRET_TTL_MS;
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}
