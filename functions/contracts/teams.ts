import * as z from 'zod/mini';
import { HEX_COLOUR } from '../domain/edits';
import { MAX_LOOK_COLOURS } from '../domain/team-look';
import {
  INVITE_LINK_CAP,
  INVITE_LINK_DAYS,
  MAX_INVITATIONS_PER_REQUEST,
  MAX_INVITATION_SENDS,
} from '../domain/team-invites';
import { MAX_SEATS_PER_PURCHASE } from '../domain/team-seats';
import {
  DOMAIN_PATTERN,
  MAX_TEAM_DOMAINS,
  MEMBER_STATES,
  TEAM_NAME_MAX_LENGTH,
  TEAM_ROLES,
  normaliseDomain,
} from '../domain/teams';
import { BACKGROUNDS, STYLES } from '../domain/styles';
import { OUTFITS } from '../domain/outfits';
import { backgroundSchema, outfitSchema, styleSchema, variantLinkSchema } from './headshot';
import { checkoutSessionSchema } from './account';
import { purchaseSchema } from './purchase';
import { colourBackgroundSchema, presetBackgroundSchema } from './edits';

export { TEAM_ERROR_MESSAGES } from '../domain/team-errors';

/**
 * Teams (issue 37, docs/teams.md "Routes"): the request and response shapes of every team route. Pure zod: safe in the
 * browser bundle. Error codes and their sentences: docs/teams.md "Errors" and docs/product-spec.md §8.
 */

/** A team's id (a ULID) or a member's `sub` in a path. */
const id = z.string().check(z.minLength(1), z.maxLength(64));
const count = z.number().check(z.int(), z.gte(0));
const isoDate = z.string();

/** A team name: 1-80 characters once trimmed (domain/teams.ts `normaliseTeamName` stores it). */
export const teamNameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Enter your team’s name.'),
    z.maxLength(TEAM_NAME_MAX_LENGTH, `A team name has at most ${TEAM_NAME_MAX_LENGTH} characters.`),
  );

/** One allowed domain, normalised (`@Acme.com` → `acme.com`); public webmail is refused by the server (400). */
export const teamDomainSchema = z
  .pipe(z.string().check(z.maxLength(255)), z.transform(normaliseDomain))
  .check(z.regex(DOMAIN_PATTERN, 'Enter a domain like acme.com.'));

/** Up to 10 allowed domains; empty: anyone with the link may join. */
export const teamDomainsSchema = z
  .array(teamDomainSchema)
  .check(z.maxLength(MAX_TEAM_DOMAINS, `A team has at most ${MAX_TEAM_DOMAINS} domains.`));

/** A background of the look (domain/team-look.ts `TeamBackground`): a preset or a custom colour. */
export const teamBackgroundSchema = z.discriminatedUnion('type', [
  presetBackgroundSchema,
  colourBackgroundSchema,
]);
export type TeamBackgroundBody = z.infer<typeof teamBackgroundSchema>;

const nonEmpty = (what: string) => z.minLength(1, `Choose at least one ${what}.`);
/** The brand look (domain/team-look.ts `TeamLook`): each list non-empty; a list of one is locked. */
export const teamLookSchema = z.object({
  styles: z.array(styleSchema).check(nonEmpty('style'), z.maxLength(STYLES.length)),
  backgrounds: z
    .array(teamBackgroundSchema)
    .check(nonEmpty('background'), z.maxLength(BACKGROUNDS.length + MAX_LOOK_COLOURS)),
  outfits: z.array(outfitSchema).check(nonEmpty('outfit'), z.maxLength(OUTFITS.length)),
});
export type TeamLookBody = z.infer<typeof teamLookSchema>;

export const teamRoleSchema = z.enum(TEAM_ROLES);
export const memberStateSchema = z.enum(MEMBER_STATES);

/** `POST /api/teams` body: the company's name and, optionally, its e-mail domains. 200: {@link teamSchema}. */
export const createTeamBody = z.object({
  name: teamNameSchema,
  allowedDomains: z._default(teamDomainsSchema, []),
});
export type CreateTeamBody = z.input<typeof createTeamBody>;

/** `PATCH /api/teams/{teamId}` body (owner/admin): any of name, domains, look. 200: {@link teamSchema}. */
export const updateTeamBody = z.strictObject({
  name: z.optional(teamNameSchema),
  allowedDomains: z.optional(teamDomainsSchema),
  look: z.optional(teamLookSchema),
});
export type UpdateTeamBody = z.input<typeof updateTeamBody>;

/** One of "my teams" (`GET /api/teams`). */
export const teamSummarySchema = z.object({
  teamId: z.string(),
  name: z.string(),
  role: teamRoleSchema,
  joinedAt: isoDate,
});
/** `GET /api/teams` 200: the caller's teams, oldest joined first. */
export const teamsSchema = z.object({ items: z.array(teamSummarySchema) });
export type Teams = z.infer<typeof teamsSchema>;

/** A member's use of their seat: one generation and `SEAT_EDIT_CREDITS` edits. */
export const allowanceSchema = z.object({
  generationsUsed: count,
  generations: count,
  editsUsed: count,
  edits: count,
});

/** A member as the team's dashboard lists them (admins), or as a member sees themself. */
export const teamMemberSchema = z.object({
  sub: z.string(),
  email: z.string(),
  role: teamRoleSchema,
  /** `joined`, `generating`, `shared` (`invited` is an invitation's, never a member's). */
  state: memberStateSchema,
  joinedAt: isoDate,
  allowance: allowanceSchema,
  /** Headshots they share with the team. */
  sharedCount: count,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** An e-mail invitation not yet accepted (`invited` on the dashboard), or `expired` (resend to renew). */
export const invitationSchema = z.object({
  email: z.string(),
  state: z.enum(['invited', 'expired']),
  sentAt: isoDate,
  /** Times sent so far (at most 5). */
  sends: count,
  expiresAt: isoDate,
});
export type Invitation = z.infer<typeof invitationSchema>;

/**
 * `GET`/`PATCH /api/teams/{teamId}` 200. Every member sees the team's name, look and their own seat (`me`); `admin` is
 * null for a plain member and holds the team's running (domains, the ledger, members, invitations) for the owner and
 * admins.
 */
export const teamSchema = z.object({
  teamId: z.string(),
  name: z.string(),
  look: teamLookSchema,
  me: teamMemberSchema,
  admin: z.nullable(
    z.object({
      allowedDomains: z.array(z.string()),
      /** Credits in the team's ledger (seats × 8, less what members spent). */
      balance: count,
      /** Credits a refunded seat purchase could not take back yet (settled from the next purchase). */
      creditsOwed: count,
      /** Current members, owner first, then by joinedAt. */
      members: z.array(teamMemberSchema),
      /** E-mail invitations not accepted yet, newest first. */
      invitations: z.array(invitationSchema),
    }),
  ),
});
export type Team = z.infer<typeof teamSchema>;

/** `PUT /api/teams/{teamId}/members/{sub}` body (owner only): `owner` hands the team over. 200: {@link teamMemberSchema}. */
export const setMemberRoleBody = z.strictObject({ role: teamRoleSchema });
export type SetMemberRoleBody = z.infer<typeof setMemberRoleBody>;

/** `POST /api/teams/{teamId}/invite-links` body: days it lives, joins it admits, whether only the team's domains may. */
export const createInviteLinkBody = z.object({
  expiresInDays: z._default(
    z
      .number()
      .check(
        z.int(),
        z.gte(INVITE_LINK_DAYS.min),
        z.lte(INVITE_LINK_DAYS.max, 'A link lives 30 days at most.'),
      ),
    INVITE_LINK_DAYS.default,
  ),
  cap: z._default(
    z
      .number()
      .check(
        z.int(),
        z.gte(INVITE_LINK_CAP.min),
        z.lte(INVITE_LINK_CAP.max, 'A link admits 1,000 people at most.'),
      ),
    INVITE_LINK_CAP.default,
  ),
  domainsOnly: z._default(z.boolean(), false),
});
export type CreateInviteLinkBody = z.input<typeof createInviteLinkBody>;

/** An invitation link as the team's admins see it (never its token, which only creation answers once). */
export const inviteLinkSchema = z.object({
  linkId: z.string(),
  createdAt: isoDate,
  expiresAt: isoDate,
  cap: count,
  uses: count,
  domainsOnly: z.boolean(),
  status: z.enum(['valid', 'INVITE_EXPIRED', 'INVITE_USED_UP', 'INVITE_REVOKED']),
});
export type InviteLinkView = z.infer<typeof inviteLinkSchema>;

/** `POST /api/teams/{teamId}/invite-links` 200: the link and its URL (`<site>/join/<token>`), shown this once. */
export const createdInviteLinkSchema = z.object({ link: inviteLinkSchema, url: z.string() });
export type CreatedInviteLink = z.infer<typeof createdInviteLinkSchema>;

/** `GET /api/teams/{teamId}/invite-links` 200: the team's links (not personal ones), newest first. */
export const inviteLinksSchema = z.object({ items: z.array(inviteLinkSchema) });

/**
 * `POST /api/teams/{teamId}/invitations` body: addresses as a list, or a pasted list / CSV (`text`) the server
 * reads every address of (domain/team-invites.ts `parseInviteeList`); at most 50 per request.
 */
export const sendInvitationsBody = z
  .object({
    emails: z.optional(
      z.array(z.string().check(z.maxLength(254))).check(z.maxLength(MAX_INVITATIONS_PER_REQUEST)),
    ),
    text: z.optional(z.string().check(z.maxLength(100_000))),
  })
  .check(
    z.refine(
      (b) => (b.emails?.length ?? 0) > 0 || (b.text ?? '').includes('@'),
      'Add at least one e-mail address.',
    ),
  );
export type SendInvitationsBody = z.input<typeof sendInvitationsBody>;

/**
 * `POST /api/teams/{teamId}/invitations` 200: what happened to each address. `sent`: invited now; `alreadyMembers`:
 * in the team; `alreadyInvited`: invited before (use resend); `wrongDomain`: outside the team's allowed domains;
 * `invalid`: not an address; `failed`: the mail service failed (the invitation is kept: use resend).
 */
export const invitationsSentSchema = z.object({
  sent: z.array(z.string()),
  failed: z.array(z.string()),
  alreadyMembers: z.array(z.string()),
  alreadyInvited: z.array(z.string()),
  wrongDomain: z.array(z.string()),
  invalid: z.array(z.string()),
});
export type InvitationsSent = z.infer<typeof invitationsSentSchema>;

/** The limits of invitations the SPA tells the admin. */
export const INVITATION_LIMITS = {
  perRequest: MAX_INVITATIONS_PER_REQUEST,
  sends: MAX_INVITATION_SENDS,
} as const;

/** `GET /api/invites/{token}` 200 (public): what the join page shows; nothing about the team's members. */
export const invitePreviewSchema = z.object({
  teamName: z.string(),
  status: inviteLinkSchema.shape.status,
  /** The domains a verified address must be at (the link is domains-only), else empty. */
  requiredDomains: z.array(z.string()),
  /** An e-mail invitation's link: only the invited address may join. */
  personal: z.boolean(),
});
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

/** `POST /api/invites/{token}/accept` 200: the team joined (or already a member: `alreadyMember`). */
export const inviteAcceptedSchema = z.object({
  teamId: z.string(),
  teamName: z.string(),
  role: teamRoleSchema,
  alreadyMember: z.boolean(),
});
export type InviteAccepted = z.infer<typeof inviteAcceptedSchema>;

/** `POST /api/teams/{teamId}/checkout/sessions` body (owner/admin): seats to buy, 1-200. 200: a Checkout Session. */
export const createSeatCheckoutBody = z.strictObject({
  seats: z.number().check(z.int(), z.gte(1, 'Buy at least one seat.'), z.lte(MAX_SEATS_PER_PURCHASE)),
});
export type CreateSeatCheckoutBody = z.infer<typeof createSeatCheckoutBody>;
export { checkoutSessionSchema as seatCheckoutSessionSchema };

/** `GET /api/teams/{teamId}/purchases?cursor=` query (owner/admin). */
export const teamPurchasesQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.regex(/^cs_[A-Za-z0-9_]{1,250}$/))),
});
/** One seat purchase: a personal purchase's fields (`packId` `team-seats`, `credits` = seats × 8) and who paid. */
export const teamPurchaseSchema = z.extend(purchaseSchema, { seats: count, buyerEmail: z.string() });
/** `GET /api/teams/{teamId}/purchases` 200: newest first, 20 a page. */
export const teamPurchasesPageSchema = z.object({
  items: z.array(teamPurchaseSchema),
  nextCursor: z.nullable(z.string()),
});
export type TeamPurchasesPage = z.infer<typeof teamPurchasesPageSchema>;

/**
 * `PUT /api/teams/{teamId}/shared/{headshotId}` body, optional (no body: `{}`): `versionId` shares one of the
 * headshot's versions (an edit's result, issue 36) instead of its own files. A headshot is shared as one picture:
 * sharing another version of it replaces the one shared.
 */
export const shareHeadshotBody = z.strictObject({ versionId: z.optional(id) });
export type ShareHeadshotBody = z.infer<typeof shareHeadshotBody>;

/**
 * A headshot shared with the team (`PUT /api/teams/{teamId}/shared/{headshotId}` 200, one item of the team gallery):
 * whose it is, and its files. `variants[].fileName` is `<member e-mail>/<the file's own name>` (the name it downloads
 * under from the member's gallery: `headshot-<style>-<background>-<n>[-v<k>]-<variant>.jpg|png`), the ZIP's entry:
 * one folder per member.
 */
export const teamHeadshotSchema = z.object({
  headshotId: z.string(),
  /** The version shared (issue 36); absent: the headshot's own files. */
  versionId: z.optional(z.string()),
  member: z.object({ sub: z.string(), email: z.string() }),
  sharedAt: isoDate,
  style: styleSchema,
  background: backgroundSchema,
  outfit: outfitSchema,
  thumbnailUrl: z.string(),
  imageUrl: z.string(),
  variants: z.array(variantLinkSchema),
});
export type TeamHeadshot = z.infer<typeof teamHeadshotSchema>;

/**
 * `GET /api/teams/{teamId}/headshots?cursor=&member=` 200: the team gallery (owner/admin: every current member's shared
 * headshots, or one member's with `member=<sub>`; a plain member: only their own), member by member and each
 * member's newest headshot first, 30 a page. The ZIP is built in the browser from `variants` as the personal
 * "Download all" is (frontend/src/features/dashboard/utils/download-all.ts).
 */
export const teamHeadshotsQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
  member: z.optional(id),
});
export const teamHeadshotsPageSchema = z.object({
  items: z.array(teamHeadshotSchema),
  nextCursor: z.nullable(z.string()),
});
export type TeamHeadshotsPage = z.infer<typeof teamHeadshotsPageSchema>;

/**
 * The fields a team generation adds to `POST /api/generations` (the generation's owner merges them into
 * `createGenerationBody`): the paying team, and a custom-colour backdrop (with `background: 'studio'`). The server
 * checks the choice against the team's look (400 `LOOK_LOCKED`) and spends from the team's ledger.
 */
export const teamGenerationFields = {
  teamId: z.optional(id),
  backgroundColour: z.optional(z.string().check(z.regex(HEX_COLOUR), z.toLowerCase())),
};

/**
 * Every team route's contract, keyed like the route table (`"<METHOD> <path>"`): `apiContracts` (contracts/index.ts)
 * takes those whose route is in `functions/http/routes.ts`, so a route can land before or after its neighbours.
 */
export const teamRouteContracts = {
  'POST /api/teams': { status: 200, body: createTeamBody, response: teamSchema },
  'GET /api/teams': { status: 200, response: teamsSchema },
  'GET /api/teams/{teamId}': { status: 200, response: teamSchema },
  'PATCH /api/teams/{teamId}': { status: 200, body: updateTeamBody, response: teamSchema },
  'PUT /api/teams/{teamId}/members/{sub}': {
    status: 200,
    body: setMemberRoleBody,
    response: teamMemberSchema,
  },
  // A member may remove themself (leave); the owner never (409 TEAM_OWNER_CANNOT_LEAVE).
  'DELETE /api/teams/{teamId}/members/{sub}': { status: 204, response: z.undefined() },
  'POST /api/teams/{teamId}/invite-links': {
    status: 200,
    body: createInviteLinkBody,
    response: createdInviteLinkSchema,
  },
  'GET /api/teams/{teamId}/invite-links': { status: 200, response: inviteLinksSchema },
  'DELETE /api/teams/{teamId}/invite-links/{linkId}': { status: 204, response: z.undefined() },
  'POST /api/teams/{teamId}/invitations': {
    status: 200,
    body: sendInvitationsBody,
    response: invitationsSentSchema,
  },
  'POST /api/teams/{teamId}/invitations/{email}/resend': { status: 200, response: invitationSchema },
  'GET /api/invites/{token}': { status: 200, response: invitePreviewSchema },
  'POST /api/invites/{token}/accept': { status: 200, response: inviteAcceptedSchema },
  'POST /api/teams/{teamId}/checkout/sessions': {
    status: 200,
    body: createSeatCheckoutBody,
    response: checkoutSessionSchema,
  },
  'GET /api/teams/{teamId}/purchases': {
    status: 200,
    query: teamPurchasesQuerySchema,
    response: teamPurchasesPageSchema,
  },
  'PUT /api/teams/{teamId}/shared/{headshotId}': {
    status: 200,
    body: shareHeadshotBody,
    response: teamHeadshotSchema,
  },
  'DELETE /api/teams/{teamId}/shared/{headshotId}': { status: 204, response: z.undefined() },
  'GET /api/teams/{teamId}/headshots': {
    status: 200,
    query: teamHeadshotsQuerySchema,
    response: teamHeadshotsPageSchema,
  },
} as const;
