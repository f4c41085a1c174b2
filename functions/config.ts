import * as z from 'zod/mini';
import { useEnglishIssueMessages } from './common/zod-locale';
import { SECRET_PLACEHOLDER, secretsGeneration } from './common/secret-values';
import { DEFAULT_DEADLINE_MINUTES } from './domain/admission';
import { DEFAULT_LIKENESS_THRESHOLD } from './domain/likeness';

/**
 * Every setting a Lambda handler reads, parsed once per cold start from `process.env`.
 *
 * The same variables drive the local stack (`npm start` fills them from `.env` and its own ports) and the cloud
 * (the CDK stack sets them on each function). `.env.example` documents each one with its local default.
 */
const optionalString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => (v === '' ? undefined : v)),
  ),
);

/** Default PROVIDER_IMAGES_PER_MINUTE for `openai`: a tier-1 account allows about 5 image edits a minute. */
export const DEFAULT_OPENAI_IMAGES_PER_MINUTE = 5;
/** Default PROVIDER_MAX_CONCURRENCY for `openai`: at 60-150 s per edit, 10 in flight sustains ~5 images a minute. */
export const DEFAULT_OPENAI_MAX_CONCURRENCY = 10;

const positiveInt = (fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.positive()), fallback);

export { SECRET_PLACEHOLDER, secretsChanged } from './common/secret-values';

/** A secret: blank or still {@link SECRET_PLACEHOLDER} counts as missing. */
const secretString = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => (v === '' || v === SECRET_PLACEHOLDER ? undefined : v)),
  ),
);

const environmentSchema = z.object({
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  /**
   * The deployment stage (`dev`, `prod`, …): the CDK stack sets it on every function; unset in the local stack.
   * `prod` refuses the offline image provider.
   */
  STAGE: optionalString,
  /** Set by the Lambda runtime itself: with STAGE, how a handler knows it runs in the cloud. */
  AWS_LAMBDA_FUNCTION_NAME: optionalString,
  /** Endpoint override for every AWS SDK client (LocalStack, the local stack's emulators). */
  AWS_ENDPOINT_URL: z.optional(z.url()),
  /** s3rver and LocalStack need path-style bucket addressing. */
  S3_FORCE_PATH_STYLE: z._default(z.stringbool(), false),
  TABLE_NAME: z.string().check(z.minLength(1)),
  UPLOADS_BUCKET: z.string().check(z.minLength(1)),
  RESULTS_BUCKET: z.string().check(z.minLength(1)),
  STATE_MACHINE_ARN: optionalString,
  /** The site's public origin, e.g. `https://headshots.example.com` (Stripe return URLs, CORS). */
  SITE_ORIGIN: z._default(z.url(), 'http://localhost:5173'),
  SUPPORT_EMAIL: z._default(z.email(), 'support@headshot.studio'),
  /** Unset locally: the real Stripe SDK then talks to the local Checkout provider at `STRIPE_API_BASE`. */
  STRIPE_SECRET_KEY: secretString,
  /**
   * The signing secret (`whsec_…`) `POST /api/webhooks/stripe` verifies `Stripe-Signature` with: the endpoint's
   * secret from the Stripe dashboard, or `stripe listen`'s; locally `npm start` generates one per run.
   */
  STRIPE_WEBHOOK_SECRET: secretString,
  /**
   * Base URL of the local Checkout provider (e.g. `http://127.0.0.1:4242`), used only when `STRIPE_SECRET_KEY` is
   * unset, so a real key is never sent anywhere but Stripe. `npm start` sets it.
   */
  STRIPE_API_BASE: z.optional(z.url()),
  /**
   * The OpenAI API key. Missing (or the placeholder) with the `openai` provider does not stop the functions: every
   * headshot slot then fails loudly (refunded, metric `ProviderMisconfigured`, alarm), see image-providers/index.ts.
   */
  OPENAI_API_KEY: secretString,
  OPENAI_BASE_URL: z.optional(z.url()),
  /**
   * OpenAI image model used for edits. `gpt-image-1` was shut down in Oct 2026 and `gpt-image-1.5` shuts down on
   * 2026-12-01; OpenAI's deprecations page names `gpt-image-2.6-sunburst` (precision) or `-flare` (fast).
   */
  OPENAI_IMAGE_MODEL: z._default(z.string().check(z.minLength(1)), 'gpt-image-2.6-sunburst'),
  /**
   * `openai` or the offline `local` one. Unset: `openai` in the cloud (a missing key then fails loudly instead of
   * charging for filtered copies of selfies); locally `openai` when OPENAI_API_KEY is set, else `local`.
   * `local` is refused when STAGE is `prod`.
   */
  IMAGE_PROVIDER: z.optional(z.enum(['openai', 'local'])),
  /** Map concurrency of the GenerateImages state (1-6 slots at once). */
  GENERATION_MAX_CONCURRENCY: z.pipe(positiveInt(6), z.number().check(z.lte(6))),
  /**
   * Images the provider accepts per minute across ALL generations (OpenAI's "IPM" for the image model on the
   * account's usage tier, Settings → Limits). Unset: 5 for `openai` (safe for a low tier), unlimited for `local`.
   * `0` means unlimited. May be fractional (e.g. 0.5 = one image every 2 minutes).
   */
  PROVIDER_IMAGES_PER_MINUTE: z.optional(z.coerce.number().check(z.gte(0))),
  /** Provider calls in flight at once across all generations. Unset: 10 for `openai`, unlimited for `local`. 0 = unlimited. */
  PROVIDER_MAX_CONCURRENCY: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  /**
   * How long a generation may wait in total, in minutes, from its start (default 30): no slot is admitted to the
   * provider after it, so a slot still throttled then is refunded. The state machine's timeout follows from it
   * (domain/admission.ts `executionTimeoutSeconds`). May be fractional (tests).
   */
  GENERATION_DEADLINE_MINUTES: z._default(z.coerce.number().check(z.positive()), DEFAULT_DEADLINE_MINUTES),
  /**
   * Sender of the "headshots ready" e-mail, e.g. `Headshot Studio <headshots@example.com>`: an identity verified in
   * Amazon SES (cloud; `npm start` sets a local sender for its SES stand-in). Unset: no e-mail is sent.
   */
  MAIL_FROM: optionalString,
  /** Optional SES configuration set for those e-mails (event publishing, dedicated IPs). */
  MAIL_CONFIGURATION_SET: optionalString,
  /** Fixed extra latency of the `local` image provider, in ms (demos and benchmarks). */
  LOCAL_PROVIDER_LATENCY_MS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  /**
   * Minimum likeness (0-100) of a delivered headshot to the customer's reference photos: under it, or without a
   * face, the slot is generated once more, then refunded (functions/domain/likeness.ts for the calibration).
   */
  LIKENESS_THRESHOLD: z._default(
    z.coerce.number().check(z.int(), z.gte(0), z.lte(100)),
    DEFAULT_LIKENESS_THRESHOLD,
  ),
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
  /** Per-user quota: photos presigned for upload per hour (a full wizard batch is 10). */
  QUOTA_UPLOADS_PER_HOUR: positiveInt(100),
  /** Per-user quota: Checkout Sessions created per hour. */
  QUOTA_CHECKOUT_SESSIONS_PER_HOUR: positiveInt(10),
  /** Per-user quota: photos checked (`POST /api/photo-checks`) per hour. */
  QUOTA_PHOTO_CHECKS_PER_HOUR: positiveInt(100),
  /** The user pool and web app client whose tokens public routes recognise (the stack sets them). */
  COGNITO_USER_POOL_ID: optionalString,
  COGNITO_CLIENT_ID: optionalString,
  /** cognito-local's endpoint; unset in the cloud (tokens are then verified against the regional issuer). */
  COGNITO_ENDPOINT: z.optional(z.url()),
  /** Amazon Data Firehose stream analytics records go to (the cloud). */
  ANALYTICS_STREAM_NAME: optionalString,
  /** Folder of the local analytics files `<date>.jsonl` when no stream is set (`npm start`: `.local/analytics`). */
  ANALYTICS_DIR: optionalString,
  /** `POST /api/analytics/events` requests allowed per client IP per minute. */
  ANALYTICS_REQUESTS_PER_MINUTE: positiveInt(60),
});

/** The environment with its derived settings (runtime, image provider, provider limits). */
const withRuntime = z.pipe(
  environmentSchema,
  z.transform((env) => {
    const runtime: 'cloud' | 'local' = env.STAGE || env.AWS_LAMBDA_FUNCTION_NAME ? 'cloud' : 'local';
    return {
      ...env,
      /** `cloud` when STAGE or AWS_LAMBDA_FUNCTION_NAME is set (a deployed function), else `local`. */
      RUNTIME: runtime,
      /** See IMAGE_PROVIDER above (docs/architecture.md §4). */
      IMAGE_PROVIDER:
        env.IMAGE_PROVIDER ?? (runtime === 'cloud' || env.OPENAI_API_KEY ? 'openai' : ('local' as const)),
    };
  }),
);

export const configSchema = z
  .pipe(
    withRuntime,
    z.transform((env) => {
      // Defaults safe for a low OpenAI tier; the offline provider has no limit of its own. 0 = unlimited.
      const openai = env.IMAGE_PROVIDER === 'openai';
      const ipm = env.PROVIDER_IMAGES_PER_MINUTE ?? (openai ? DEFAULT_OPENAI_IMAGES_PER_MINUTE : 0);
      const concurrency = env.PROVIDER_MAX_CONCURRENCY ?? (openai ? DEFAULT_OPENAI_MAX_CONCURRENCY : 0);
      return {
        ...env,
        /** Images per minute; `Infinity` when unlimited. */
        PROVIDER_IMAGES_PER_MINUTE: ipm === 0 ? Number.POSITIVE_INFINITY : ipm,
        /** Calls in flight; `Infinity` when unlimited. */
        PROVIDER_MAX_CONCURRENCY: concurrency === 0 ? Number.POSITIVE_INFINITY : concurrency,
      };
    }),
  )
  .check(
    z.superRefine((env, ctx) => {
      if (env.IMAGE_PROVIDER === 'local' && env.STAGE === 'prod') {
        ctx.addIssue({
          code: 'custom',
          path: ['IMAGE_PROVIDER'],
          message:
            'local (the offline provider) is refused when STAGE is prod: paying customers would get filtered copies of their selfies. Use openai.',
        });
      }
      if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_WEBHOOK_SECRET'],
          message: 'is required when STRIPE_SECRET_KEY is set',
        });
      }
    }),
  );

/** The parsed configuration: units are ms for durations; secrets are optional strings. */
export type AppConfig = z.output<typeof configSchema>;

/** Thrown once per cold start when the environment is incomplete; its message lists every problem. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  - ${problems.join('\n  - ')}`,
    );
  }
}

/**
 * Parses an environment into an {@link AppConfig}.
 *
 * @throws {ConfigError} listing every missing or invalid variable at once, never only the first.
 */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  useEnglishIssueMessages();
  const result = configSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        return issue.code === 'invalid_type' && issue.input === undefined
          ? `${name} is missing`
          : `${name}: ${issue.message}`;
      }),
    );
  }
  return result.data;
}

let cached: { config: AppConfig; secrets: number } | undefined;

/**
 * The configuration of this Lambda execution environment, parsed from `process.env` on first use and cached for
 * later invocations. The cache holds only a configuration whose secrets are complete: while one is missing or still
 * the placeholder, common/secrets.ts reads it again after a short TTL and, when it arrives, calls
 * `secretsChanged` (common/secret-values.ts), so the next call parses the completed environment (a placeholder at the first cold start
 * does not stay "missing" for the life of the environment).
 *
 * @throws {ConfigError} when the environment is incomplete.
 */
export function loadConfig(): AppConfig {
  if (cached?.secrets !== secretsGeneration())
    cached = { config: parseConfig(process.env), secrets: secretsGeneration() };
  return cached.config;
}

/** Forgets the cached configuration. Tests only: a Lambda environment never changes its plain variables. */
export function resetConfigForTests(): void {
  cached = undefined;
}
