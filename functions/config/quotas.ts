import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { positiveInt } from './fields';

/**
 * The per-user quotas of the costly routes (docs/architecture.md, API: quotas), each per fixed hour, the likeness
 * cap on provider calls (functions/domain/likeness-cap.ts, docs/decisions/004-likeness-retry-cap.md) and the cost of
 * provider refusals (functions/domain/provider-refusals.ts, docs/decisions/018-provider-refusals.md).
 */
const quotas = defineSettings(
  z.object({
    /** Photos presigned for upload per hour (default 100; a full wizard batch is 10). */
    QUOTA_UPLOADS_PER_HOUR: positiveInt(100),
    /** Checkout Sessions created per hour (default 10). */
    QUOTA_CHECKOUT_SESSIONS_PER_HOUR: positiveInt(10),
    /** Photos checked (`POST /api/photo-checks`) per hour (default 100). */
    QUOTA_PHOTO_CHECKS_PER_HOUR: positiveInt(100),
    /** `DELETE /api/me/data` calls per hour (default 10: each lists and deletes every object of the caller). */
    QUOTA_DATA_DELETIONS_PER_HOUR: positiveInt(10),
    /** `POST /api/headshots/{id}/regenerate` attempts per hour (default 30; one runs at a time anyway). */
    QUOTA_REGENERATIONS_PER_HOUR: positiveInt(30),
    /**
     * `POST /api/headshots/{id}/edits` attempts per hour (default 30, the regenerations' figure for the same reason:
     * an edit is a one-slot generation too, and one runs at a time anyway).
     */
    QUOTA_EDITS_PER_HOUR: positiveInt(30),
    /**
     * `GET /api/checkout/sessions/{id}` calls per hour (default 60: each asks Stripe; the payment result page asks
     * at most 4 times per session, and 10 sessions an hour may be created).
     */
    QUOTA_CHECKOUT_VERIFICATIONS_PER_HOUR: positiveInt(60),
    /**
     * Teams a person may create per UTC day (default 10; docs/teams.md "Invitations"): a team costs nothing until
     * seats are bought, so this only keeps one account from filling the table with empty teams.
     */
    QUOTA_TEAMS_PER_DAY: positiveInt(10),
    /**
     * Team invitation e-mails (sends and resends) one person may have sent per hour (default 100: two full requests
     * of 50; each is an SES message to someone who did not ask for it, so it is the team routes' costly one).
     */
    QUOTA_TEAM_INVITATIONS_PER_HOUR: positiveInt(100),
    /** Invitations one person may accept per hour (default 20): joining is free, so this only slows a link scraper. */
    QUOTA_TEAM_JOINS_PER_HOUR: positiveInt(20),
    /** Provider calls per credit paid for, per UTC day (default 2: the headshot and one likeness retry). */
    QUOTA_PROVIDER_CALLS_PER_CREDIT: positiveInt(2),
    /** Failed likeness checks in one generation that stop it and refuse its photos (default 3 of 6). */
    QUOTA_LIKENESS_REJECTIONS_TO_STOP: positiveInt(3),
    /** Days photos whose headshots kept failing are refused for new generations (default 7). */
    QUOTA_FAILED_PHOTO_SET_DAYS: positiveInt(7),
    /**
     * Provider refusals in one generation that stop it and set its photos aside (default 3 of 6, as failed likeness
     * checks; docs/decisions/018-provider-refusals.md).
     */
    QUOTA_PROVIDER_REFUSALS_TO_STOP: positiveInt(3),
    /** Provider refusals of one account within the rolling window that refuse its starts (default 6). */
    QUOTA_ACCOUNT_REFUSALS: positiveInt(6),
    /** The account's rolling window of provider refusals, in hours (default 24). */
    QUOTA_REFUSAL_WINDOW_HOURS: positiveInt(24),
    /** Days photos whose generation the provider's refusals stopped are refused (default 7). */
    QUOTA_REFUSED_PHOTO_SET_DAYS: positiveInt(7),
  }),
);

/** The quota sizes. */
export type QuotaSettings = ReturnType<typeof quotas.load>;
/** The quota settings of this execution environment (parsed once per cold start). */
export const quotaSettings = quotas.load;
/** Parses an environment's quota settings. @throws {ConfigError} naming each bad variable. */
export const parseQuotaSettings = quotas.parse;
