import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { optionalString, runtimeOf, secretString } from './fields';
import { DEFAULT_OPENAI_IMAGE_MODEL, DEFAULT_OPENAI_IMAGE_QUALITY } from '../domain/openai-image-models';
import { DEFAULT_FREE_SHARE } from '../domain/provider-queue-lanes';
import { DEFAULT_STANDING_RULES } from '../domain/provider-queue-standing';

/** Default PROVIDER_IMAGES_PER_MINUTE for `openai`: a tier-1 account allows about 5 image edits a minute. */
export const DEFAULT_OPENAI_IMAGES_PER_MINUTE = 5;
/**
 * Default PROVIDER_MAX_CONCURRENCY for `openai`: 4 calls in flight, each a Lambda invocation of 60-150 s, so a new AWS
 * account's Lambda concurrency quota of 10 keeps room for everything else (about 2.7 images a minute at 90 s a call;
 * raise it once the quota is: docs/decisions/017-new-account-quotas.md).
 */
export const DEFAULT_OPENAI_MAX_CONCURRENCY = 4;

const environment = z.object({
  /** Read to tell the cloud from the local stack (see runtime.ts): they choose the default provider. */
  STAGE: optionalString,
  /**
   * `true`/`false`, set by the CDK stack from its `production` setting (infrastructure/constructs/settings.ts).
   * Unset: production exactly when STAGE is `prod` or `production`.
   */
  PRODUCTION: z.optional(z.enum(['true', 'false'])),
  AWS_LAMBDA_FUNCTION_NAME: optionalString,
  /**
   * The OpenAI API key. Missing (or the placeholder) with the `openai` provider does not stop the functions: every
   * headshot slot then fails loudly (refunded, metric `ProviderMisconfigured`, alarm), see image-providers/index.ts.
   */
  OPENAI_API_KEY: secretString,
  /** Another OpenAI-compatible endpoint (default OpenAI's own). */
  OPENAI_BASE_URL: z.optional(z.url()),
  /**
   * OpenAI image model used for edits (functions/domain/openai-image-models.ts lists what each takes; the default is
   * docs/decisions/001-openai-image-model.md). A model the table does not know is sent only what every model takes.
   */
  OPENAI_IMAGE_MODEL: z._default(z.string().check(z.minLength(1)), DEFAULT_OPENAI_IMAGE_MODEL),
  /** Edit quality (`low` … `max`, as the model takes them; default `high`): price and latency grow with it. */
  OPENAI_IMAGE_QUALITY: z._default(
    z.enum(['low', 'medium', 'high', 'xhigh', 'max', 'auto']),
    DEFAULT_OPENAI_IMAGE_QUALITY,
  ),
  /**
   * The OpenAI client's timeout in whole seconds (1-840). Unset: the model and quality's documented worst case × 1.5
   * (functions/domain/provider-timeouts.ts). The slot Lambda's timeout follows it at deploy (`-c openaiTimeoutSeconds`).
   */
  OPENAI_TIMEOUT_SECONDS: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(840))),
  /**
   * `openai` or the offline `local` one. Unset: `openai` in the cloud (a missing key then fails loudly instead of
   * charging for filtered copies of selfies); locally `openai` when OPENAI_API_KEY is set, else `local`.
   * `local` is refused in production (PRODUCTION above; docs/architecture.md §4).
   */
  IMAGE_PROVIDER: z.optional(z.enum(['openai', 'local'])),
  /**
   * Images the provider accepts per minute across ALL generations (OpenAI's "IPM" for the image model on the
   * account's usage tier, Settings → Limits). Unset: 5 for `openai` (safe for a low tier), unlimited for `local`.
   * `0` means unlimited. May be fractional (e.g. 0.5 = one image every 2 minutes).
   */
  PROVIDER_IMAGES_PER_MINUTE: z.optional(z.coerce.number().check(z.gte(0))),
  /** Provider calls in flight at once across all generations. Unset: 4 for `openai`, unlimited for `local`. 0 = unlimited. */
  PROVIDER_MAX_CONCURRENCY: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  /**
   * The longest a 429 may pause every admission, in whole seconds (default 60): a `retry-after` or
   * `x-ratelimit-reset-*` asking longer is cut to it (docs/decisions/010-provider-queue.md).
   */
  PROVIDER_MAX_PAUSE_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(900)), 60),
  /**
   * The head start of a customer with a "Priority generation" pack in the provider line, in whole seconds (default
   * 300; 0 = strict first come, first served): their generation goes ahead of free ones that started less than this
   * before it, never of older ones, so a free generation waits at most this much longer than without priority.
   */
  PROVIDER_PRIORITY_HEAD_START_SECONDS: z._default(
    z.coerce.number().check(z.int(), z.gte(0), z.lte(3_600)),
    300,
  ),
  /**
   * The free lane's share of the provider's admissions while paid work waits, 0-1 (default 0.25): free (sign-up
   * credit) work gets at most this share, a paying customer never waits behind more (docs/decisions/019-paid-first.md).
   */
  PROVIDER_FREE_SHARE: z._default(z.coerce.number().check(z.gte(0), z.lte(1)), DEFAULT_FREE_SHARE),
  /** Cents a purchase must have been charged (after promotion codes) to count as paid in the line (default 100). */
  PROVIDER_PAID_MIN_CENTS: z._default(
    z.coerce.number().check(z.int(), z.gte(0)),
    DEFAULT_STANDING_RULES.minPaidCents,
  ),
  /** The share of a purchase's credits a refund may take back before it stops counting as paid (default 0.5). */
  PROVIDER_PAID_MAX_REFUNDED_SHARE: z._default(
    z.coerce.number().check(z.gte(0), z.lte(1)),
    DEFAULT_STANDING_RULES.maxRefundedShare,
  ),
  /** Fixed extra latency of the `local` image provider, in ms (demos and benchmarks; default 0). */
  LOCAL_PROVIDER_LATENCY_MS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  /**
   * What the `local` image provider's per-slot variation (offset, palette, light, jitter) is drawn from: `generation`
   * (the default: every generation's headshots differ from another's) or `request` (the same photos, choices and
   * slot give the same pixels: reproducible screenshots, and the test stacks, whose recorded face-model answers are
   * keyed by pixels; decision 014, seventh round).
   */
  LOCAL_PROVIDER_VARIATION: z._default(z.enum(['generation', 'request']), 'generation'),
});

/**
 * The image provider and its limits (docs/architecture.md §4): which provider, its key, model and endpoint, and
 * how fast the provider admission line lets calls through.
 */
const imageProvider = defineSettings(
  z
    .pipe(
      environment,
      z.transform((env) => {
        const runtime = runtimeOf(env);
        const provider =
          env.IMAGE_PROVIDER ?? (runtime === 'cloud' || env.OPENAI_API_KEY ? 'openai' : ('local' as const));
        // Defaults safe for a low OpenAI tier; the offline provider has no limit of its own. 0 = unlimited.
        const openai = provider === 'openai';
        const ipm = env.PROVIDER_IMAGES_PER_MINUTE ?? (openai ? DEFAULT_OPENAI_IMAGES_PER_MINUTE : 0);
        const concurrency = env.PROVIDER_MAX_CONCURRENCY ?? (openai ? DEFAULT_OPENAI_MAX_CONCURRENCY : 0);
        return {
          ...env,
          /** `cloud` or `local`, see runtime.ts. */
          RUNTIME: runtime,
          /** The provider, its default applied (see IMAGE_PROVIDER above). */
          IMAGE_PROVIDER: provider,
          /** Images per minute; `Infinity` when unlimited. */
          PROVIDER_IMAGES_PER_MINUTE: ipm === 0 ? Number.POSITIVE_INFINITY : ipm,
          /** Calls in flight; `Infinity` when unlimited. */
          PROVIDER_MAX_CONCURRENCY: concurrency === 0 ? Number.POSITIVE_INFINITY : concurrency,
        };
      }),
    )
    .check(
      z.superRefine((env, ctx) => {
        const production =
          env.PRODUCTION === undefined
            ? env.STAGE === 'prod' || env.STAGE === 'production'
            : env.PRODUCTION === 'true';
        if (env.IMAGE_PROVIDER === 'local' && production) {
          ctx.addIssue({
            code: 'custom',
            path: ['IMAGE_PROVIDER'],
            message:
              'local (the offline provider) is refused in production (PRODUCTION is true, or unset and STAGE is prod): paying customers would get filtered copies of their selfies. Use openai.',
          });
        }
      }),
    ),
);

/** The image provider settings, defaults applied. */
export type ImageProviderSettings = ReturnType<typeof imageProvider.load>;
/** The image provider settings of this execution environment (parsed again once a secret arrives). */
export const imageProviderSettings = imageProvider.load;
/** Parses an environment's image provider settings. @throws {ConfigError} naming each bad variable. */
export const parseImageProviderSettings = imageProvider.parse;
