import Stripe from 'stripe';
import { stripeSettings, type StripeSettings } from '../../config/stripe';
import { secretsGeneration } from '../../common/secret-values';
import { secretRejected } from '../../common/secrets';
import { traced } from '../../common/tracer';

/*
 * The Stripe client, created once per execution environment (cold start) and reused, like the AWS clients.
 *
 * - With `STRIPE_SECRET_KEY` it talks to Stripe itself (api.stripe.com), and nothing else: a real key is never sent
 *   to a configurable host.
 * - Without it, the same SDK talks to the local Checkout provider at `STRIPE_API_BASE` (infrastructure/local/
 *   stand-ins/stripe/) with {@link LOCAL_STRIPE_API_KEY}, a placeholder that is obviously not a secret (docs/architecture.md §5).
 */

/**
 * The API version this code is written and tested against: the one stripe-node 23.1.0 pins. Pinned explicitly so a
 * dependency upgrade that moves it fails typechecking here instead of silently changing object shapes
 * (Stripe "API upgrades" / "Versioning" docs).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** The API key sent to the local Checkout provider. A placeholder, not a secret: it does not look like `sk_test_…`. */
export const LOCAL_STRIPE_API_KEY = 'sk_local_placeholder-not-a-secret';

/** Stripe is neither configured with a key nor pointed at a local provider. */
export class StripeNotConfiguredError extends Error {
  override readonly name = 'StripeNotConfiguredError';
  constructor() {
    super(
      'Stripe is not configured: set STRIPE_SECRET_KEY, or STRIPE_API_BASE for the local Checkout provider',
    );
  }
}

/** The key and SDK options for a configuration (pure; exported for tests). */
export function stripeClientSettings(config: Pick<StripeSettings, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): {
  key: string;
  options: Stripe.StripeConfig;
  local: boolean;
} {
  const common: Stripe.StripeConfig = {
    apiVersion: STRIPE_API_VERSION,
    // API Gateway gives a request 30 s: at most 2 tries of 8 s each, with the SDK's own idempotency keys on retries.
    maxNetworkRetries: 1,
    timeout: 8_000,
    appInfo: { name: 'headshot-studio' },
  };
  if (config.STRIPE_SECRET_KEY) return { key: config.STRIPE_SECRET_KEY, options: common, local: false };
  if (!config.STRIPE_API_BASE) throw new StripeNotConfiguredError();
  const base = new URL(config.STRIPE_API_BASE);
  const protocol = base.protocol === 'https:' ? 'https' : 'http';
  return {
    key: LOCAL_STRIPE_API_KEY,
    options: {
      ...common,
      host: base.hostname,
      port: base.port || (protocol === 'https' ? 443 : 80),
      protocol,
      telemetry: false,
    },
    local: true,
  };
}

let client: Stripe | undefined;
/** The secrets generation (common/secret-values.ts) the client was made in: a rotated key makes a new client. */
let madeIn = -1;

/**
 * The Stripe client of this execution environment, made again when a new key arrived (common/secrets.ts).
 *
 * @throws {StripeNotConfiguredError} when neither `STRIPE_SECRET_KEY` nor `STRIPE_API_BASE` is set.
 */
export function stripeClient(): Stripe {
  if (!client || madeIn !== secretsGeneration()) {
    const { key, options } = stripeClientSettings(stripeSettings());
    client = new Stripe(key, options);
    madeIn = secretsGeneration();
  }
  return client;
}

/** Forgets the client. Tests only: a Lambda environment never changes its configuration. */
export function resetStripeClientForTests(): void {
  client = undefined;
}

/**
 * Runs one Stripe API call as an X-Ray subsegment `Stripe <operation>` (common/tracer.ts). A 401
 * (`StripeAuthenticationError`: the key was rolled in the Stripe Dashboard) makes the next invocation read the key
 * again (common/secrets.ts `secretRejected`), so the new key is used as soon as it is in its secret.
 *
 * @throws whatever the call throws
 */
export async function stripeCall<T>(operation: string, call: (stripe: Stripe) => Promise<T>): Promise<T> {
  return traced(`Stripe ${operation}`, async () => {
    try {
      return await call(stripeClient());
    } catch (error) {
      if ((error as { type?: string } | undefined)?.type === 'StripeAuthenticationError') {
        secretRejected('STRIPE_SECRET_KEY');
      }
      throw error;
    }
  });
}

/** A Stripe error's safe description for logs: type, code, HTTP status, request id and message, keys redacted. */
export function describeStripeError(error: unknown): Record<string, unknown> {
  const e = error as Partial<InstanceType<typeof Stripe.errors.StripeError>> & { message?: string };
  return {
    name: (error as Error | undefined)?.name,
    type: e.type,
    code: e.code,
    statusCode: e.statusCode,
    requestId: e.requestId,
    message: String(e.message ?? error).replace(/\b(sk|rk|whsec)_[A-Za-z0-9_]+/g, '$1_[redacted]'),
  };
}

/** True for Stripe's "no such object" answer (HTTP 404 / `resource_missing`). */
export function isStripeNotFound(error: unknown): boolean {
  const e = error as { statusCode?: number; code?: string } | undefined;
  return e?.statusCode === 404 || e?.code === 'resource_missing';
}
