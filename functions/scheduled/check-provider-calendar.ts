import { checkProviderCalendar, type CalendarResult } from '../use-cases/check-provider-calendar';
import { loadSecrets } from '../common/secrets';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-calendar`, once a day (EventBridge Scheduler; locally the scheduler stand-in): reads the
 * configured OpenAI model's `shutdown_date` and publishes it for the shutdown alarms (use-cases/
 * check-provider-calendar.ts; docs/operations.md). With the offline `local` provider it checks nothing and says so.
 *
 * @returns what it found: `{ status, model, shutdownDate?, daysLeft? }`, or `skipped` with its reason
 */
export const handler = withLambdaContext<void, CalendarResult>(async () => {
  await loadSecrets();
  return checkProviderCalendar();
});
