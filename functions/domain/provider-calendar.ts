/**
 * The provider's calendar (issue 34, item 7): what a model's `shutdown_date` (OpenAI's `GET /v1/models/{model}`,
 * "The date when the model will shut down, or null if not announced":
 * https://developers.openai.com/api/reference/resources/models/methods/retrieve) means for the operator. Pure: no I/O.
 *
 * Why 30 days: OpenAI gives image generation models at least 3 months' notice of a shutdown
 * (https://developers.openai.com/api/docs/deprecations, "Model deprecation notice periods"), so the first alarm, on
 * the day the date appears, leaves about 90 days to change OPENAI_IMAGE_MODEL; the second, 30 days before, is the
 * reminder that the change has not been made yet.
 */

/** Days before a shutdown at which the calendar warns a second time. */
export const SHUTDOWN_REMINDER_DAYS = 30;

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/** What the calendar says of one model on one day. */
export type ShutdownStanding =
  /** No shutdown date announced. */
  | { status: 'none' }
  /** A shutdown date is announced, more than {@link SHUTDOWN_REMINDER_DAYS} days away. */
  | { status: 'announced'; shutdownDate: string; daysLeft: number }
  /** The shutdown is {@link SHUTDOWN_REMINDER_DAYS} days away or less (0: today the model is refused). */
  | { status: 'imminent'; shutdownDate: string; daysLeft: number };

/**
 * Whole days from the UTC day of `now` to `shutdownDate` (UTC `YYYY-MM-DD`, the first day OpenAI refuses the model):
 * 0 on that day, negative after it.
 *
 * @throws Error when `shutdownDate` is not a `YYYY-MM-DD` date
 */
export function daysUntil(shutdownDate: string, now: Date): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(shutdownDate) || Number.isNaN(Date.parse(`${shutdownDate}T00:00:00Z`))) {
    throw new Error(`Not a YYYY-MM-DD date: ${JSON.stringify(shutdownDate)}`);
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${shutdownDate}T00:00:00Z`) - today) / DAY_MS);
}

/**
 * The standing of a model whose `shutdown_date` is `shutdownDate` (`null` or absent: none announced) on `now`.
 *
 * @throws Error when `shutdownDate` is set but not a `YYYY-MM-DD` date
 */
export function shutdownStanding(shutdownDate: string | null | undefined, now: Date): ShutdownStanding {
  if (!shutdownDate) return { status: 'none' };
  const daysLeft = daysUntil(shutdownDate, now);
  return daysLeft <= SHUTDOWN_REMINDER_DAYS
    ? { status: 'imminent', shutdownDate, daysLeft }
    : { status: 'announced', shutdownDate, daysLeft };
}
