import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import {
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  type BusinessMetric,
  type BusinessTiming,
} from '../../functions/common/metrics';

/** Options of {@link businessMetric}. */
export interface BusinessMetricOptions {
  /** Default 5 minutes. */
  period?: Duration;
  /** Default `Sum` (counts); timings take `p95`, `Maximum`, … */
  statistic?: string;
  /** Dimensions beside `service` and `stage` (e.g. `{ function: fn.functionName }`). */
  dimensions?: Record<string, string>;
  label?: string;
}

/**
 * One business metric (functions/common/metrics.ts) of ONE stage: every alarm and widget reads its own stage's
 * series, so a dev stage in the same account never moves prod's alarms (issue 26).
 */
export function businessMetric(
  name: BusinessMetric | BusinessTiming,
  stage: string,
  options: BusinessMetricOptions = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, stage, ...options.dimensions },
    statistic: options.statistic ?? 'Sum',
    period: options.period ?? Duration.minutes(5),
    label: options.label,
  });
}

/**
 * A CloudWatch SEARCH expression over every value of `dimension` of a business metric of one stage (e.g.
 * `CreditsRefunded` by `reason`): one line per value, for dashboards (alarms cannot use SEARCH).
 */
export function businessSearch(
  name: BusinessMetric | BusinessTiming,
  stage: string,
  dimension: string,
  options: { period?: Duration; statistic?: string; label?: string } = {},
): cloudwatch.MathExpression {
  const period = options.period ?? Duration.minutes(5);
  return new cloudwatch.MathExpression({
    expression:
      `SEARCH('{${METRICS_NAMESPACE},${dimension},service,stage} MetricName="${name}" ` +
      `service="${METRICS_SERVICE}" stage="${stage}"', '${options.statistic ?? 'Sum'}', ${period.toSeconds()})`,
    usingMetrics: {},
    period,
    label: options.label ?? '',
  });
}
