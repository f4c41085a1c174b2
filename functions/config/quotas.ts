import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { positiveInt } from './fields';

/** The per-user quotas of the costly routes (docs/architecture.md, API: quotas), each per rolling hour. */
const quotas = defineSettings(
  z.object({
    /** Photos presigned for upload per hour (default 100; a full wizard batch is 10). */
    QUOTA_UPLOADS_PER_HOUR: positiveInt(100),
    /** Checkout Sessions created per hour (default 10). */
    QUOTA_CHECKOUT_SESSIONS_PER_HOUR: positiveInt(10),
    /** Photos checked (`POST /api/photo-checks`) per hour (default 100). */
    QUOTA_PHOTO_CHECKS_PER_HOUR: positiveInt(100),
  }),
);

/** The quota sizes. */
export type QuotaSettings = ReturnType<typeof quotas.load>;
/** The quota settings of this execution environment (parsed once per cold start). */
export const quotaSettings = quotas.load;
/** Parses an environment's quota settings. @throws {ConfigError} naming each bad variable. */
export const parseQuotaSettings = quotas.parse;
