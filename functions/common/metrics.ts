import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business metrics as CloudWatch Embedded Metric Format (Powertools Metrics): one JSON line per metric that
 * CloudWatch turns into a metric in the `HeadshotStudio` namespace, dimensions `service` and `stage` (plus the
 * metric's own, below). The stage dimension keeps stages that share an account apart: a dev stage's
 * `PaidNotCredited` must never trip prod's alarm, so every alarm and dashboard widget (infrastructure/constructs/
 * business-metrics.ts) names its stage. Locally and in tests set `POWERTOOLS_METRICS_DISABLED=true` to keep them out
 * of the output.
 */

/** Every business count metric the handlers emit. */
export type BusinessMetric =
  /** A Checkout Session credited (including a 100 %-off one). */
  | 'PurchasesCredited'
  /** A paid session that could not be credited (it does not match its pending purchase): needs a person. */
  | 'PaidNotCredited'
  /** A `charge.refunded` that reversed credits. */
  | 'PurchasesRefunded'
  /** A `charge.dispute.created` received. */
  | 'DisputesCreated'
  /** A reversal larger than the balance left: the account was flagged. */
  | 'ReversalShortfalls'
  /**
   * A headshot slot failed (and was refunded) because the image provider cannot be called as configured: no key, or
   * OpenAI refused the configuration (metadata: model, param, code).
   */
  | 'ProviderMisconfigured'
  /** SES refused an e-mail for the account's setup (unverified sender, sandbox recipient, sending paused). */
  | 'MailRefused'
  /** A generation's workflow was started (credits reserved). */
  | 'GenerationsStarted'
  /** A generation ended with at least one headshot (succeeded or partial). */
  | 'GenerationsDelivered'
  /** Credits given back for undelivered headshots; dimension `reason` (see {@link RefundReason}). */
  | 'CreditsRefunded'
  /**
   * The generation's place in line when a slot was told to wait (1 = next): the dashboard's queue length is its
   * Maximum (a gauge, unit Count).
   */
  | 'QueuePosition'
  /** Calls made to the image provider (every outcome). */
  | 'ProviderCalls'
  /** Provider calls answered 429 (rate limited): the slot went back in line. */
  | 'ProviderThrottled'
  /** Provider calls that failed for the provider's reasons (5xx, timeout, unreadable answer), not a refusal. */
  | 'ProviderFailures'
  /**
   * Provider calls the provider refused (a 4xx other than 429 that names no configuration parameter, e.g. OpenAI's
   * `moderation_blocked`): the refuser's count goes up (docs/decisions/018-provider-refusals.md); the
   * `ProviderRefusalRate` alarm watches their share of the calls.
   */
  | 'ProviderRefusals'
  /**
   * A ticket of the provider queue the table refused to admit (its transaction invalid: docs/architecture.md §4): set
   * aside in `<base>#ASIDE`, its slot refunded; the line moved on. Pages: it is a bug.
   */
  | 'QueueTicketsSetAside'
  /**
   * The daily provider calendar (use-cases/check-provider-calendar.ts): 1 when OpenAI announces a `shutdown_date` for
   * the configured model, 0 when none is announced (dimension-free; metadata: model, shutdownDate).
   */
  | 'ProviderModelShutdownScheduled'
  /** Whole days until the configured model's announced shutdown (a gauge; only published when one is announced). */
  | 'ProviderModelDaysToShutdown'
  /**
   * A handler ended with an error that is an expected outcome of the workflow (no usable photo, a likeness
   * rejection, the admission deadline, a retried throttle or transaction conflict, …): dimension `function`. The
   * per-function alarm counts Lambda `Errors` minus these (common/expected-errors.ts).
   */
  | 'ExpectedErrors';

/** Every business metric measured in milliseconds. */
export type BusinessTiming =
  /** Wall time of one provider call (every outcome). */
  | 'ProviderLatency'
  /** From the generation's start until the admission point let one of its slots call the provider. */
  | 'QueueWait';

/**
 * Why credits went back (the `reason` dimension of `CreditsRefunded`, a small fixed set): `undelivered` (Finalize:
 * slots the provider, the deadline or the likeness check left empty), `likeness_cap` (the likeness cap stopped the
 * generation), `workflow_failed` (the workflow's Catch), or a generation error code in lower case for the paths
 * outside the workflow (`timed_out`, `start_failed`, `generation_failed`, …).
 */
export type RefundReason = 'undelivered' | 'likeness_cap' | 'workflow_failed' | Lowercase<string>;

/** The namespace of every business metric. */
export const METRICS_NAMESPACE = 'HeadshotStudio';
/** The `service` dimension of every business metric. */
export const METRICS_SERVICE = 'headshot-studio';
/** The `stage` dimension's value where `STAGE` is unset (the local stack, tests). */
export const LOCAL_STAGE = 'local';

/** The stage dimension of this execution environment: `STAGE` (set by the CDK stack on every function). */
export function metricStage(): string {
  return process.env.STAGE || LOCAL_STAGE;
}

let metrics: Metrics | undefined;

/** Options of one metric line. */
export interface MetricOptions {
  /** Extra dimensions beside `service` and `stage` (e.g. `{ reason }`, `{ function }`): keep them few and bounded. */
  dimensions?: Readonly<Record<string, string>>;
  /** Searchable properties in the same EMF line, not dimensions (alarms on the metric still match). */
  metadata?: Readonly<Record<string, string | number | null>>;
  /** When it happened (epoch ms or a Date); default now. */
  timestamp?: number | Date;
}

function emit(
  name: string,
  unit: (typeof MetricUnit)[keyof typeof MetricUnit],
  value: number,
  options: MetricOptions,
): void {
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
  const single = metrics.singleMetric();
  single.addDimension('stage', metricStage());
  for (const [key, item] of Object.entries(options.dimensions ?? {})) single.addDimension(key, item);
  for (const [key, item] of Object.entries(options.metadata ?? {})) single.addMetadata(key, String(item));
  if (options.timestamp !== undefined) single.setTimestamp(options.timestamp);
  single.addMetric(name, unit, value);
}

/**
 * Emits `value` (default 1) of a count metric at once (no buffering, so nothing is lost if the function dies).
 * `metadata` goes into the same EMF line as searchable properties, not dimensions, so alarms on the metric still
 * match (e.g. the model, param and code of a `ProviderMisconfigured`).
 */
export function countMetric(
  name: BusinessMetric,
  value = 1,
  metadata: Readonly<Record<string, string | number | null>> = {},
  options: Omit<MetricOptions, 'metadata'> = {},
): void {
  emit(name, MetricUnit.Count, value, { ...options, metadata });
}

/** Emits one duration of a timing metric, in ms, at once. */
export function timingMetric(name: BusinessTiming, ms: number, options: MetricOptions = {}): void {
  emit(name, MetricUnit.Milliseconds, Math.max(0, Math.round(ms)), options);
}
