import { ulid } from 'ulid';
import { loggableMailError, sendMail } from '../adapters/mailer';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import {
  getInvitation,
  listInvitations,
  putInvitation,
  type InvitationRecord,
} from '../adapters/teams/invites';
import { listMembers, type TeamRecord } from '../adapters/teams/records';
import { logger } from '../common/logger';
import type { Invitation, InvitationsSent, SendInvitationsBody } from '../contracts/teams';
import { NoEmailInTokenError } from '../domain/errors';
import type { MailContent } from '../domain/mail-layout';
import {
  InvitationNotFoundError,
  InvitationNotSentError,
  InvitationSendLimitError,
  TooManyInviteesError,
} from '../domain/team-errors';
import { inviteTokenHash, newInviteToken } from '../domain/team-invite-tokens';
import {
  INVITATION_DAYS,
  MAX_INVITATION_SENDS,
  MAX_INVITATIONS_PER_REQUEST,
  normaliseInvitee,
  parseInviteeList,
  type InviteLink,
} from '../domain/team-invites';
import { invitationMail } from '../domain/team-mails';
import { inAllowedDomain } from '../domain/teams';
import { joinUrl } from './invite-links';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import type { TeamCaller } from './teams';

/**
 * E-mail invitations (docs/teams.md "Invitations"): each address gets a personal link (one use, that address only,
 * 14 days) by e-mail through the mailer (SES); a resend replaces the link. Sends count against the sender's hourly
 * `team-invitations` quota before anything is stored.
 */

/** What these use cases need. */
export interface SendInvitationsPorts extends TeamAccessPorts {
  /** Counts `amount` invitation e-mails against the caller's quota; throws `QuotaExceededError`. */
  countInvitations: (sub: string, amount: number) => Promise<unknown>;
  listMembers: typeof listMembers;
  listInvitations: typeof listInvitations;
  getInvitation: typeof getInvitation;
  putInvitation: typeof putInvitation;
  sendMail: (to: string, content: MailContent) => Promise<string | null>;
  newToken: () => string;
  newId: () => string;
  now: () => Date;
  joinUrl: (token: string) => string;
}

const adapters: SendInvitationsPorts = {
  ...teamAccessAdapters,
  countInvitations: (sub, amount) => consumeQuota({ sub }, quotaRules().teamInvitations, amount),
  listMembers,
  listInvitations,
  getInvitation,
  putInvitation,
  sendMail,
  newToken: newInviteToken,
  newId: ulid,
  now: () => new Date(),
  joinUrl,
};

/** Mails sent at once (SES accepts 14 a second by default; a request holds at most 50). */
const PARALLEL_SENDS = 4;

/** A new personal link and its invitation for `email`, `sends` times sent. */
function personalInvitation(email: string, sends: number, invitedBy: string, ports: SendInvitationsPorts) {
  const now = ports.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  const link: InviteLink = {
    linkId: ports.newId(),
    createdAt: now.toISOString(),
    expiresAt,
    cap: 1,
    uses: 0,
    domainsOnly: false,
    email,
  };
  const invitation: InvitationRecord = {
    email,
    linkId: link.linkId,
    sentAt: now.toISOString(),
    sends,
    expiresAt,
    invitedBy,
  };
  return { link, invitation, token: ports.newToken() };
}

/** Sends the invitation e-mail; false (logged without the address) when the mail service failed. */
async function mailInvitation(
  team: TeamRecord,
  inviterEmail: string,
  invitation: InvitationRecord,
  token: string,
  ports: SendInvitationsPorts,
): Promise<boolean> {
  const content = invitationMail({
    teamName: team.name,
    inviterEmail,
    email: invitation.email,
    url: ports.joinUrl(token),
    expiresAt: invitation.expiresAt,
  });
  try {
    await ports.sendMail(invitation.email, content);
    return true;
  } catch (error) {
    logger.warn('Team invitation not sent', { error: loggableMailError(error) });
    return false;
  }
}

/** The addresses of the request: the list's and the pasted text's, normalised, each once. */
function requestedAddresses(body: SendInvitationsBody): { emails: string[]; invalid: string[] } {
  const listed = parseInviteeList((body.emails ?? []).join('\n'));
  const pasted = parseInviteeList(body.text ?? '');
  return {
    emails: [...new Set([...listed.emails, ...pasted.emails])],
    invalid: [...listed.invalid, ...pasted.invalid],
  };
}

/**
 * `POST /api/teams/{teamId}/invitations` (owner/admin): invites each address not in the team, not invited already
 * and (when the team has allowed domains) in one of them; answers what happened to each.
 *
 * @throws {TooManyInviteesError} more than {@link MAX_INVITATIONS_PER_REQUEST} addresses
 * @throws {QuotaExceededError} past the caller's hourly invitations (nothing is sent)
 */
export async function sendInvitations(
  teamId: string,
  caller: TeamCaller,
  body: SendInvitationsBody,
  ports: SendInvitationsPorts = adapters,
): Promise<InvitationsSent> {
  const { team } = await teamAccess(teamId, caller.sub, 'manage-invites', ports);
  if (!caller.email) throw new NoEmailInTokenError();
  const { emails, invalid } = requestedAddresses(body);
  if (emails.length > MAX_INVITATIONS_PER_REQUEST)
    throw new TooManyInviteesError(MAX_INVITATIONS_PER_REQUEST);
  const [members, invitations] = await Promise.all([
    ports.listMembers(teamId),
    ports.listInvitations(teamId),
  ]);
  const memberEmails = new Set(members.filter((m) => m.membership === 'joined').map((m) => m.email));
  const nowIso = ports.now().toISOString();
  const open = new Set(
    invitations.filter((i) => i.acceptedAt === undefined && i.expiresAt > nowIso).map((i) => i.email),
  );
  const result: InvitationsSent = {
    sent: [],
    failed: [],
    alreadyMembers: [],
    alreadyInvited: [],
    wrongDomain: [],
    invalid,
  };
  const toSend: string[] = [];
  for (const email of emails) {
    if (memberEmails.has(email)) result.alreadyMembers.push(email);
    else if (open.has(email)) result.alreadyInvited.push(email);
    else if (team.allowedDomains.length > 0 && !inAllowedDomain(email, team.allowedDomains))
      result.wrongDomain.push(email);
    else toSend.push(email);
  }
  if (toSend.length > 0) await ports.countInvitations(caller.sub, toSend.length);
  const inviter = caller.email.trim().toLowerCase();
  for (let i = 0; i < toSend.length; i += PARALLEL_SENDS) {
    await Promise.all(
      toSend.slice(i, i + PARALLEL_SENDS).map(async (email) => {
        const { link, invitation, token } = personalInvitation(email, 1, inviter, ports);
        if (!(await ports.putInvitation(teamId, invitation, link, inviteTokenHash(token)))) {
          result.alreadyInvited.push(email);
          return;
        }
        const sent = await mailInvitation(team, inviter, invitation, token, ports);
        (sent ? result.sent : result.failed).push(email);
      }),
    );
  }
  return result;
}

/**
 * `POST /api/teams/{teamId}/invitations/{email}/resend` (owner/admin): a new personal link by e-mail, the old one
 * turned off.
 *
 * @throws {InvitationNotFoundError} no open invitation to that address
 * @throws {InvitationSendLimitError} it was sent {@link MAX_INVITATION_SENDS} times
 * @throws {InvitationNotSentError} the mail service failed (the new link is stored: resend again)
 */
export async function resendInvitation(
  teamId: string,
  caller: TeamCaller,
  address: string,
  ports: SendInvitationsPorts = adapters,
): Promise<Invitation> {
  const { team } = await teamAccess(teamId, caller.sub, 'manage-invites', ports);
  if (!caller.email) throw new NoEmailInTokenError();
  const current = await ports.getInvitation(teamId, normaliseInvitee(address));
  if (!current || current.acceptedAt !== undefined) throw new InvitationNotFoundError();
  if (current.sends >= MAX_INVITATION_SENDS) throw new InvitationSendLimitError(MAX_INVITATION_SENDS);
  await ports.countInvitations(caller.sub, 1);
  const inviter = caller.email.trim().toLowerCase();
  const { link, invitation, token } = personalInvitation(current.email, current.sends + 1, inviter, ports);
  if (!(await ports.putInvitation(teamId, invitation, link, inviteTokenHash(token), current))) {
    throw new InvitationNotFoundError();
  }
  if (!(await mailInvitation(team, inviter, invitation, token, ports))) throw new InvitationNotSentError();
  return {
    email: invitation.email,
    state: 'invited',
    sentAt: invitation.sentAt,
    sends: invitation.sends,
    expiresAt: invitation.expiresAt,
  };
}
