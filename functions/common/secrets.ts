import { logger } from './logger';

/**
 * Secret ARN variable → the plain variable `functions/config.ts` reads. The CDK stack sets the ARNs only on the
 * functions whose code uses the secret (infrastructure/constructs/access.ts).
 */
const SECRETS = [
  ['STRIPE_SECRET_ARN', 'STRIPE_SECRET_KEY'],
  ['STRIPE_WEBHOOK_SECRET_ARN', 'STRIPE_WEBHOOK_SECRET'],
  ['OPENAI_API_KEY_SECRET_ARN', 'OPENAI_API_KEY'],
] as const;

/** The value a freshly deployed secret holds until an operator puts the real key (README "Deploy to AWS"). */
const PLACEHOLDER = 'REPLACE_ME';

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

async function loadAll(): Promise<void> {
  for (const [arnVariable, plainVariable] of SECRETS) {
    const arn = process.env[arnVariable];
    if (!arn || process.env[plainVariable]) continue;
    try {
      const value = await getSecret(arn);
      if (value && value !== PLACEHOLDER) process.env[plainVariable] = value;
      else logger.warn('Secret is not configured yet', { secret: arnVariable });
    } catch (error) {
      // LocalStack and `sam local` have no extension: run without the secret rather than fail every request.
      if (process.env.AWS_ENDPOINT_URL) {
        logger.warn('Secrets extension unreachable; continuing without the secret', { secret: arnVariable });
        continue;
      }
      throw error;
    }
  }
}

/**
 * Fills `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET` and `OPENAI_API_KEY` from Secrets Manager (through the
 * Parameters and Secrets Lambda Extension) once per execution environment, before the first `loadConfig()`.
 * A variable already set (local stack, tests) is left alone; a secret still holding `REPLACE_ME` stays unset.
 * Values are never logged. A failed load is retried on the next invocation.
 *
 * @throws {Error} when the extension cannot be reached in the cloud.
 */
export function loadSecrets(): Promise<void> {
  if (!SECRETS.some(([arn]) => process.env[arn])) return Promise.resolve();
  loading ??= loadAll().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
