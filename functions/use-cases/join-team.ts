import { consumeQuota, quotaRules } from '../adapters/quotas';
import { findInvite, joinTeam, JoinRefusedError } from '../adapters/teams/invites';
import { getMember, getTeam, type MemberRecord } from '../adapters/teams/records';
import type { InviteAccepted } from '../contracts/teams';
import { invite } from './preview-invite';
import { NoEmailInTokenError } from '../domain/errors';
import { InviteUnusableError, TeamNotFoundError } from '../domain/team-errors';
import { inviteTokenHash } from '../domain/team-invite-tokens';
import { assertMayJoin, inviteLinkStatus, normaliseInvitee } from '../domain/team-invites';

/**
 * Joining a team through a link (docs/teams.md "Invitations"): the public preview of the join page, and the accept.
 * Joining grants nothing of its own — no credits, no bonus (issue 37 §7): the member spends the team's seats.
 */

/** What these use cases need. */
export interface JoinTeamPorts {
  /** Counts one accept against the caller's hourly quota; throws `QuotaExceededError`. */
  countJoin: (sub: string) => Promise<unknown>;
  findInvite: typeof findInvite;
  getTeam: typeof getTeam;
  getMember: typeof getMember;
  joinTeam: typeof joinTeam;
  now: () => Date;
}

const adapters: JoinTeamPorts = {
  countJoin: (sub) => consumeQuota({ sub }, quotaRules().teamJoins),
  findInvite,
  getTeam,
  getMember,
  joinTeam,
  now: () => new Date(),
};

/** The person joining: the ID token's `sub`, `email` and `email_verified`. */
export interface Joining {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
}

/**
 * `POST /api/invites/{token}/accept`: joins the caller to the link's team as a member. A current member is answered
 * `alreadyMember` without using the link (idempotent); someone who left or was removed joins again with their
 * allowance as it was.
 *
 * @throws {QuotaExceededError} past the caller's hourly joins (counted before the link is read)
 * @throws {InviteUnusableError} unknown, revoked, expired or used-up link
 * @throws {EmailNotVerifiedError}, {InviteWrongDomainError}, {InviteWrongAddressError}
 * @throws {NoEmailInTokenError} the token carries no e-mail
 */
export async function acceptInvite(
  token: string,
  joining: Joining,
  ports: JoinTeamPorts = adapters,
): Promise<InviteAccepted> {
  await ports.countJoin(joining.sub);
  const { link, team } = await invite(token, ports);
  const accepted = (alreadyMember: boolean, role: MemberRecord['role']): InviteAccepted => ({
    teamId: team.teamId,
    teamName: team.name,
    role,
    alreadyMember,
  });
  const previous = await ports.getMember(team.teamId, joining.sub);
  if (previous?.membership === 'joined') return accepted(true, previous.role);
  if (!joining.email) throw new NoEmailInTokenError();
  const now = ports.now();
  assertMayJoin(
    link,
    team.allowedDomains,
    { email: joining.email, emailVerified: joining.emailVerified },
    now.getTime(),
  );
  const member: MemberRecord = {
    teamId: team.teamId,
    sub: joining.sub,
    role: 'member',
    email: normaliseInvitee(joining.email),
    membership: 'joined',
    joinedAt: now.toISOString(),
    generationsUsed: previous?.generationsUsed ?? 0,
    editsUsed: previous?.editsUsed ?? 0,
    sharedCount: 0,
  };
  try {
    await ports.joinTeam(link, member, previous, now.toISOString());
  } catch (error) {
    if (!(error instanceof JoinRefusedError)) throw error;
    if (error.refusal === 'already-member') return accepted(true, 'member');
    if (error.refusal === 'team-gone') throw new TeamNotFoundError();
    // The link changed between the read and the join (used up, revoked): say which, as read now.
    const again = await ports.findInvite(inviteTokenHash(token));
    const status = again ? inviteLinkStatus(again.link, now.getTime()) : 'INVITE_USED_UP';
    throw new InviteUnusableError(status === 'valid' ? 'INVITE_USED_UP' : status);
  }
  return accepted(false, 'member');
}
