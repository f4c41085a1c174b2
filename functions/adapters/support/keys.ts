/**
 * Key builders of the single table (docs/architecture.md §2). Every item of a user lives under `PK = USER#<sub>`, so a Query
 * on one partition is scoped to that user by construction.
 */
export const userPk = (sub: string) => `USER#${sub}`;
export const PROFILE_SK = 'PROFILE';
export const ledgerSk = (id: string) => `LEDGER#${id}`;
/** Marker item that makes a credit change idempotent by its reason and reference. */
export const ledgerRefSk = (reason: string, ref: string) => `LEDGERREF#${reason}#${ref}`;
export const purchaseSk = (checkoutSessionId: string) => `PURCHASE#${checkoutSessionId}`;
export const generationSk = (id: string) => `GENERATION#${id}`;
export const headshotSk = (id: string) => `HEADSHOT#${id}`;
/**
 * A version of a headshot (an edit's result, adapters/headshots/versions.ts): `VERSION#<headshotId>#<versionId>`, so
 * one Query with `begins_with(SK, 'VERSION#<headshotId>#')` lists a headshot's versions oldest first (ULIDs), and
 * `begins_with(SK, 'HEADSHOT#')` (the gallery) never sees them.
 */
export const versionSk = (headshotId: string, versionId: string) => `VERSION#${headshotId}#${versionId}`;
/**
 * The gallery's counters (adapters/headshots/stats.ts). `$` sorts right after `#`, so this key is the last of the range
 * `HEADSHOT#` … `HEADSHOT$STATS`: a newest-first Query of that range reads it before the newest headshot, while
 * `begins_with(SK, 'HEADSHOT#')` never sees it.
 */
export const GALLERY_STATS_SK = 'HEADSHOT$STATS';
/** A quota counter of one rule and one fixed window (window start in epoch seconds). */
export const quotaSk = (rule: string, windowStart: number) => `QUOTA#${rule}#${windowStart}`;
/** The once-per-person sign-up bonus marker, keyed by the hash of the normalised e-mail; outlives the account. */
export const bonusPk = (emailHash: string) => `BONUS#${emailHash}`;
export const BONUS_SK = 'BONUS';
/** The cached photo check of one upload (its object key), see adapters/photo-checks.ts. */
export const photoCheckSk = (uploadKey: string) => `PHOTOCHECK#${uploadKey}`;
/** The wizard's draft kept with the account: one item per user (adapters/wizard-drafts.ts). */
export const WIZARD_DRAFT_SK = 'WIZARD_DRAFT';
/** What the server recorded when it created a Checkout Session (pack, price, credits, currency at that moment). */
export const pendingPurchaseSk = (checkoutSessionId: string) => `PENDING_PURCHASE#${checkoutSessionId}`;
/** Finds the buyer and Checkout Session of a payment intent (refunds and disputes name only the payment). */
export const paymentIntentPk = (paymentIntentId: string) => `PAYMENT_INTENT#${paymentIntentId}`;
export const PAYMENT_INTENT_SK = 'PAYMENT_INTENT';
/**
 * The sweeper's index of open generations (one partition, sorted by deadline): written in the generation's creation
 * transaction, removed by the sweeper once the generation is terminal (docs/architecture.md §8 "Money").
 */
export const SWEEP_PK = 'SWEEP#generations';
export const sweepSk = (deadline: string, sub: string, generationId: string) =>
  `${deadline}#${sub}#${generationId}`;
/**
 * The index of generations whose headshots are kept until a date (one partition, sorted by that date): written by
 * the sweeper when it retires a generation's sweep marker, read by it when the retention period ends
 * (docs/decisions/011-retention.md). Its sort key is {@link sweepSk}'s shape, with the expiry as the date.
 */
export const RETENTION_PK = 'RETENTION#headshots';

/*
 * Teams (issue 37, docs/teams.md "Items"): everything of a team lives under `PK = TEAM#<teamId>` (a ULID), so a Query
 * of one partition is scoped to that team by construction; the team's own ledger uses the same sort keys as a user's
 * ({@link ledgerSk}, {@link ledgerRefSk}, {@link purchaseSk}, {@link pendingPurchaseSk}) under that partition.
 */
export const teamPk = (teamId: string) => `TEAM#${teamId}`;
/** The team itself: name, owner, allowed domains, look, balance (credits), creditsOwed, createdAt. */
export const TEAM_SK = 'TEAM';
/** A member (current or gone): role, e-mail, membership, joinedAt, allowance counters, sharedCount. */
export const teamMemberSk = (sub: string) => `MEMBER#${sub}`;
/** `begins_with(SK, MEMBER_PREFIX)`: the team's members. */
export const MEMBER_PREFIX = 'MEMBER#';
/** "My teams": under the user's partition, written in the same transaction as the member item. */
export const userTeamSk = (teamId: string) => `TEAM#${teamId}`;
/** `begins_with(SK, USER_TEAM_PREFIX)` under `USER#<sub>`: the caller's teams. */
export const USER_TEAM_PREFIX = 'TEAM#';
/** An invitation link (the SHA-256 of its token, expiry, cap, uses, domainsOnly, revokedAt, email for a personal one). */
export const inviteLinkSk = (linkId: string) => `INVITELINK#${linkId}`;
export const INVITE_LINK_PREFIX = 'INVITELINK#';
/** Finds a link by its token: `INVITE#<sha256 of the token>` / `INVITE` → teamId, linkId (TTL a day past expiry). */
export const inviteTokenPk = (tokenHash: string) => `INVITE#${tokenHash}`;
export const INVITE_TOKEN_SK = 'INVITE';
/** An e-mail invitation, by the normalised address: linkId (its personal link), sentAt, sends, acceptedAt. */
export const invitationSk = (email: string) => `INVITATION#${email}`;
export const INVITATION_PREFIX = 'INVITATION#';
/** A headshot a member shared with the team: `begins_with(SK, 'SHARED#<sub>#')` is one member's shares. */
export const sharedSk = (sub: string, headshotId: string) => `SHARED#${sub}#${headshotId}`;
export const SHARED_PREFIX = 'SHARED#';
export const memberSharedPrefix = (sub: string) => `SHARED#${sub}#`;
/**
 * The member's own record of a share (`USER#<sub>` / `SHARE#<headshotId>#<teamId>`), written and deleted in the same
 * transactions as the team's `SHARED#` item: what finds a headshot's shares when the member deletes it (or their
 * data, or their account), whichever teams they are in or have left (docs/teams.md "Sharing and the team gallery").
 */
export const userShareSk = (headshotId: string, teamId: string) => `SHARE#${headshotId}#${teamId}`;
/** `begins_with(SK, …)` under `USER#<sub>`: the shares of one headshot, or (`headshotId` '') of every headshot. */
export const userSharePrefix = (headshotId = '') => (headshotId ? `SHARE#${headshotId}#` : 'SHARE#');
