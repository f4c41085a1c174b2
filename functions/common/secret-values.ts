/*
 * What the settings groups (functions/config/*.ts) and functions/common/secrets.ts share about secrets, in a module
 * of its own so that loading secrets loads (and parses) no settings group: handlers that read no configuration
 * (`GET /api/health`, `GET /api/packs`) stay small.
 */

/** The value a freshly deployed secret holds until an operator puts the real key (docs/deploy.md, "Put the secrets"). */
export const SECRET_PLACEHOLDER = 'REPLACE_ME';

/**
 * How long the Parameters and Secrets Lambda Extension keeps a secret before it asks Secrets Manager again, in
 * seconds (its `SECRETS_MANAGER_TTL`, set on every function by infrastructure/constructs/app-function.ts; the
 * extension's default is 300). AWS docs, "Use AWS Secrets Manager secrets in AWS Lambda functions":
 * https://docs.aws.amazon.com/secretsmanager/latest/userguide/retrieving-secrets_lambda.html
 */
export const EXTENSION_SECRET_TTL_SECONDS = 45;

/**
 * How long functions/common/secrets.ts trusts what it read (present, missing or placeholder) before it asks the extension again,
 * in ms. The extension answers from its cache, so a re-read costs a loopback request, not a Secrets Manager call.
 */
export const SECRET_REFRESH_MS = 15_000;

/**
 * The documented bound (docs/deploy.md, "Put the secrets"; functions/common/secrets.ts): a value put with `put-secret-value` (a key set after deploy, or rotated)
 * is what every warm function uses at most this long afterwards — the extension's cache plus that refresh.
 */
export const SECRET_ROTATION_BOUND_MS = EXTENSION_SECRET_TTL_SECONDS * 1000 + SECRET_REFRESH_MS;

let generation = 0;

/** How many times a secret has arrived in `process.env` in this execution environment (0 at the cold start). */
export function secretsGeneration(): number {
  return generation;
}

/**
 * Records that common/secrets.ts has just put a secret into `process.env`: the next `load()` of each settings group
 * (config/settings.ts) parses the environment again. Objects built from the old configuration compare it by identity to rebuild themselves
 * (image-providers/index.ts).
 */
export function secretsChanged(): void {
  generation += 1;
}
