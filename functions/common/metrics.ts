import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business metrics as CloudWatch Embedded Metric Format (Powertools Metrics): one JSON line per metric that
 * CloudWatch turns into a metric in the `HeadshotStudio` namespace, dimension `service`. The CDK Alarms construct
 * alarms on them (docs/architecture.md §8 "Money"). Locally and in tests set `POWERTOOLS_METRICS_DISABLED=true`
 * to keep them out of the output.
 */

/** Every business metric the handlers emit (counts). */
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
  | 'MailRefused';

/** The namespace of every business metric. */
export const METRICS_NAMESPACE = 'HeadshotStudio';

let metrics: Metrics | undefined;

/**
 * Emits `value` (default 1) of a count metric at once (no buffering, so nothing is lost if the function dies).
 * `metadata` goes into the same EMF line as searchable properties, not dimensions, so alarms on the metric still
 * match (e.g. the model, param and code of a `ProviderMisconfigured`).
 */
export function countMetric(
  name: BusinessMetric,
  value = 1,
  metadata: Readonly<Record<string, string | number | null>> = {},
): void {
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'headshot-studio' });
  const single = metrics.singleMetric();
  for (const [key, item] of Object.entries(metadata)) single.addMetadata(key, String(item));
  single.addMetric(name, MetricUnit.Count, value);
}
