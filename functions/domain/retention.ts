/**
 * How long the product keeps each kind of customer data: the one source the infrastructure enforces and the
 * Privacy Policy states (docs/decisions/011-retention.md). The CDK stack's S3 lifecycle rules
 * (infrastructure/constructs/storage.ts, analytics.ts), the photo checks' DynamoDB TTL (adapters/photo-checks.ts),
 * the generation sweeper (use-cases/sweep-generations.ts, which also runs in the local stack) and the SPA's legal
 * pages (frontend/src/features/legal) all read these numbers; test/infrastructure/retention.test.ts checks that
 * every lifecycle rule matches its constant. Periods are whole days (S3 lifecycle rules count in days).
 */

/** Days an uploaded photo (`uploads/<sub>/…`) is kept: long enough to generate and regenerate, short for privacy. */
export const UPLOAD_RETENTION_DAYS = 7;

/**
 * Days a photo check (the photo's face measurements and its face descriptor, biometric data) is kept: a day longer
 * than the upload it describes, so a check never outlives its photo by more than a day.
 */
export const PHOTO_CHECK_RETENTION_DAYS = UPLOAD_RETENTION_DAYS + 1;

/**
 * Days the wizard's draft kept with the account (the photos' keys and small previews, style, background, step) lives
 * after its last save: as long as an upload lives, so a draft saved with a fresh photo lasts that photo's life
 * (photos that expire sooner are left out when it is read); then the table's TTL removes it (adapters/wizard-drafts.ts).
 */
export const WIZARD_DRAFT_RETENTION_DAYS = UPLOAD_RETENTION_DAYS;

/**
 * Days a generated headshot (its four files and its gallery item) is kept, counted from the generation that made
 * it: a year to download it again, after which the generation sweeper deletes it, as "delete" in the gallery does.
 */
export const HEADSHOT_RETENTION_DAYS = 365;

/**
 * Days after {@link HEADSHOT_RETENTION_DAYS} that the results bucket's lifecycle rule deletes any file the sweeper
 * has not (the guarantee behind the sweeper, which also keeps the gallery's items and counters in step): one day.
 */
export const HEADSHOT_FILES_BACKSTOP_DAYS = 1;

/**
 * Minutes after a generation's start by which the descriptor of its reference photos (the mean face descriptor
 * its likeness checks compare with) is deleted from the generation: the sweeper's cutoff for that generation
 * (domain/generation-deadline.ts `sweepCutoff`, 43 minutes with the default deadline), rounded up to the hour the
 * Privacy Policy states. Nothing compares with it once no execution can run.
 */
export const REFERENCE_DESCRIPTOR_RETENTION_HOURS = 1;

/** Days a provider's raw image may stay under `work/` in the results bucket (S3's shortest lifecycle expiry). */
export const WORK_RETENTION_DAYS = 1;

/** Days a product analytics event (pseudonymous: account id, browser id, path) is kept: 13 months, about 400 days. */
export const ANALYTICS_EVENT_RETENTION_DAYS = 400;

/** Days Athena query results and Firehose delivery errors (copies of events) are kept in the analytics bucket. */
export const ANALYTICS_WORKING_FILES_RETENTION_DAYS = 30;

/** Days the buckets' server access logs and CloudFront's standard logs (IP addresses) are kept, in production. */
export const ACCESS_LOG_RETENTION_DAYS = 365;

/** The same, outside production (development stages keep them shorter). */
export const DEV_ACCESS_LOG_RETENTION_DAYS = 90;

/** Milliseconds in a day (UTC days: no daylight saving). */
const DAY_MS = 86_400_000;

/**
 * When a headshot of the generation created at `generationCreatedAt` (ISO 8601) is deleted: its creation plus
 * {@link HEADSHOT_RETENTION_DAYS}, as an ISO 8601 instant.
 */
export function headshotExpiry(generationCreatedAt: string): string {
  return new Date(Date.parse(generationCreatedAt) + HEADSHOT_RETENTION_DAYS * DAY_MS).toISOString();
}

/** One S3 lifecycle expiration rule: objects under `prefix` in `bucket` expire `days` after they were written. */
export interface ObjectExpiryRule {
  bucket: 'uploads' | 'results';
  prefix: string;
  days: number;
}

/**
 * The expiration rules of the data buckets, as the CDK stack writes them (infrastructure/constructs/storage.ts) and
 * the local stack applies them (functions/scheduled/local-object-expiry.ts, as s3rver has no lifecycle rules).
 */
export const OBJECT_EXPIRY_RULES: readonly ObjectExpiryRule[] = [
  { bucket: 'uploads', prefix: 'uploads/', days: UPLOAD_RETENTION_DAYS },
  { bucket: 'results', prefix: 'work/', days: WORK_RETENTION_DAYS },
  // A streaming slot's latest partial image (issue 36, decision 025): gone like work/ when its slot did not delete it.
  { bucket: 'results', prefix: 'partial/', days: WORK_RETENTION_DAYS },
  { bucket: 'results', prefix: 'results/', days: HEADSHOT_RETENTION_DAYS + HEADSHOT_FILES_BACKSTOP_DAYS },
];

/**
 * When S3 expires an object written at `lastModified` under a rule of `days`: the object's creation plus the days,
 * rounded up to the next midnight UTC ("Amazon S3 calculates the time by adding the number of days specified in the
 * rule to the object creation time and rounding the resulting time to the next day midnight UTC",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html).
 */
export function lifecycleExpiry(lastModified: Date, days: number): Date {
  const due = lastModified.getTime() + days * DAY_MS;
  return new Date(Math.ceil(due / DAY_MS) * DAY_MS);
}
