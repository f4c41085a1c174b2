import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { optionalString, positiveInt } from './fields';

/** Where product analytics records go, and how fast a client may send them (docs/architecture.md, analytics). */
const analytics = defineSettings(
  z.object({
    /** Amazon Data Firehose stream analytics records go to (the cloud). */
    ANALYTICS_STREAM_NAME: optionalString,
    /** Folder of the local analytics files `<date>.jsonl` when no stream is set (`npm start`: `.local/analytics`). */
    ANALYTICS_DIR: optionalString,
    /** `POST /api/analytics/events` requests allowed per client IP per minute (default 60). */
    ANALYTICS_REQUESTS_PER_MINUTE: positiveInt(60),
  }),
);

/** The analytics sink and rate. */
export type AnalyticsSettings = ReturnType<typeof analytics.load>;
/** The analytics settings of this execution environment (parsed once per cold start). */
export const analyticsSettings = analytics.load;
/** Parses an environment's analytics settings. @throws {ConfigError} naming each bad variable. */
export const parseAnalyticsSettings = analytics.parse;
