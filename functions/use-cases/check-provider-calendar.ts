import {
  calendarSettings,
  ProviderModelNotFoundError,
  retrieveProviderModel,
  type CalendarSettings,
  type ProviderModelInfo,
} from '../adapters/provider-calendar';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import { shutdownStanding } from '../domain/provider-calendar';

/**
 * The provider's calendar (issue 34, item 7; docs/operations.md "ProviderModelShutdownAnnounced"): once a day, reads
 * the configured OpenAI model's `shutdown_date` and publishes it, so an alarm fires the day OpenAI announces a
 * shutdown and again 30 days before it (domain/provider-calendar.ts `SHUTDOWN_REMINDER_DAYS`).
 */

/** One day's reading, as published. */
export interface CalendarReading {
  model: string;
  /** 1 when a shutdown is announced (or the model is already gone), 0 when none is. */
  scheduled: 0 | 1;
  /** Whole days until the shutdown (0 when the model is gone); absent when none is announced. */
  daysLeft?: number;
  shutdownDate: string | null;
}

/** What the calendar needs from the outside world: the configuration, OpenAI's answer, the metrics. */
export interface CheckProviderCalendarPorts {
  /** The configured provider and model, and whether a key is configured (never the key). */
  settings: () => CalendarSettings;
  /** `GET /v1/models/{model}`; throws ProviderModelNotFoundError on a 404. */
  retrieveModel: (model: string) => Promise<ProviderModelInfo>;
  /** Publishes the reading (metrics `ProviderModelShutdownScheduled`, `ProviderModelDaysToShutdown`). */
  publish: (reading: CalendarReading) => void;
}

/** Publishes a reading as the two business metrics the calendar's alarms read. */
function publishReading(reading: CalendarReading): void {
  const metadata = { model: reading.model, shutdownDate: reading.shutdownDate };
  countMetric('ProviderModelShutdownScheduled', reading.scheduled, metadata);
  if (reading.daysLeft !== undefined) countMetric('ProviderModelDaysToShutdown', reading.daysLeft, metadata);
}

const adapters: CheckProviderCalendarPorts = {
  settings: calendarSettings,
  retrieveModel: retrieveProviderModel,
  publish: publishReading,
};

/** What one check did. */
export type CalendarResult =
  /** Nothing was asked: the offline provider has no calendar, or no key is configured yet. */
  | { status: 'skipped'; reason: 'local_provider' | 'no_api_key'; model: string }
  /** `none`: no shutdown announced; `announced`: one more than 30 days away; `imminent`: 30 days or less. */
  | {
      status: 'none' | 'announced' | 'imminent';
      model: string;
      shutdownDate: string | null;
      daysLeft?: number;
    }
  /** OpenAI answered 404 for the model: gone, or never served to this organisation. */
  | { status: 'not_found'; model: string; shutdownDate: null; daysLeft: 0 };

/**
 * Reads the configured model's calendar and publishes it:
 * - the `local` provider (offline): nothing to read, says so (`skipped`, logged);
 * - `openai` without a key: skipped with a warning (the `ProviderMisconfigured` alarm covers a missing key on the
 *   first call; this check cannot ask without one);
 * - no `shutdown_date`: `ProviderModelShutdownScheduled` 0;
 * - a `shutdown_date`: `ProviderModelShutdownScheduled` 1 and `ProviderModelDaysToShutdown` (warned when 30 or less);
 * - a 404 (`model_not_found`): published as a shutdown today (1 and 0 days), logged as an error: every image call
 *   fails the same way.
 *
 * @param now the day of the check (tests)
 * @throws whatever the model read throws besides a 404 (a wrong key, OpenAI unavailable after the SDK's retries):
 *   the function's Errors alarm reports it, and tomorrow's run asks again
 */
export async function checkProviderCalendar(
  now = new Date(),
  ports: CheckProviderCalendarPorts = adapters,
): Promise<CalendarResult> {
  const settings = ports.settings();
  const model = settings.model;
  if (settings.provider === 'local') {
    logger.info('Provider calendar: the offline provider has no shutdown dates; nothing checked', { model });
    return { status: 'skipped', reason: 'local_provider', model };
  }
  if (!settings.hasApiKey) {
    logger.warn('Provider calendar: no OPENAI_API_KEY configured; the shutdown date was not checked', {
      model,
    });
    return { status: 'skipped', reason: 'no_api_key', model };
  }
  let info: ProviderModelInfo;
  try {
    info = await ports.retrieveModel(model);
  } catch (error) {
    if (!(error instanceof ProviderModelNotFoundError)) throw error;
    logger.error('Provider calendar: OpenAI does not serve the configured model (404 model_not_found)', {
      model,
      problem: error.message,
    });
    ports.publish({ model, scheduled: 1, daysLeft: 0, shutdownDate: null });
    return { status: 'not_found', model, shutdownDate: null, daysLeft: 0 };
  }
  const standing = shutdownStanding(info.shutdownDate, now);
  if (standing.status === 'none') {
    ports.publish({ model, scheduled: 0, shutdownDate: null });
    logger.info('Provider calendar: no shutdown announced', { model });
    return { status: 'none', model, shutdownDate: null };
  }
  const { shutdownDate, daysLeft } = standing;
  ports.publish({ model, scheduled: 1, daysLeft, shutdownDate });
  const log = standing.status === 'imminent' ? logger.error.bind(logger) : logger.warn.bind(logger);
  log('Provider calendar: OpenAI announced a shutdown of the configured model', {
    model,
    shutdownDate,
    daysLeft,
  });
  return { status: standing.status, model, shutdownDate, daysLeft };
}
