import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SHUTDOWN_REMINDER_DAYS } from '../../functions/domain/provider-calendar';
import { businessMetric } from './business-metrics';
import type { AlarmSpec } from './topic-alarms';

/**
 * The provider calendar's two alarms (issue 34, item 7), read from what the daily `provider-calendar` function
 * publishes (functions/use-cases/check-provider-calendar.ts), each over one day, the check's own period:
 * - `ProviderModelShutdownAnnounced`: OpenAI announced a `shutdown_date` for the configured model (or no longer
 *   serves it). It notifies once, when it turns to ALARM, and stays there while the date stands: OpenAI gives image
 *   models at least 3 months' notice (https://developers.openai.com/api/docs/deprecations), so this is the start of
 *   that time.
 * - `ProviderModelShutdownImminent`: the shutdown is {@link SHUTDOWN_REMINDER_DAYS} days away or less: the second
 *   notice, when the model has still not been changed.
 * Missing data does not breach (the offline provider publishes nothing), like every alarm of the stage.
 *
 * @param alarm the stage's alarm maker (topic-alarms.ts `topicAlarms`)
 * @param stage the stage whose metrics the alarms read
 */
export function providerCalendarAlarms(
  alarm: (id: string, spec: AlarmSpec) => cloudwatch.Alarm,
  stage: string,
): void {
  const day = Duration.days(1);
  alarm('ProviderModelShutdownAnnounced', {
    metric: businessMetric('ProviderModelShutdownScheduled', stage, { period: day, statistic: 'Maximum' }),
    threshold: 1,
    alarmDescription:
      'OpenAI announced a shutdown date for the configured image model (OPENAI_IMAGE_MODEL), or no longer serves it: after that date every headshot slot fails. The provider-calendar log line names the model and date. Choose the replacement OpenAI names (https://developers.openai.com/api/docs/deprecations), run npm run check:provider with it, then deploy with the new model (docs/operations.md).',
  });
  alarm('ProviderModelShutdownImminent', {
    metric: new cloudwatch.MathExpression({
      expression: `IF(days <= ${SHUTDOWN_REMINDER_DAYS}, 1, 0)`,
      usingMetrics: {
        days: businessMetric('ProviderModelDaysToShutdown', stage, { period: day, statistic: 'Minimum' }),
      },
      period: day,
      label: `Configured image model shuts down within ${SHUTDOWN_REMINDER_DAYS} days`,
    }),
    threshold: 1,
    alarmDescription: `The configured OpenAI image model shuts down in ${SHUTDOWN_REMINDER_DAYS} days or less and is still configured: change OPENAI_IMAGE_MODEL to its replacement now (run npm run check:provider with it first; docs/operations.md).`,
  });
}
