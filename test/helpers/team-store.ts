import type { InvitationRecord } from '../../functions/adapters/teams/invites';
import { JoinRefusedError } from '../../functions/adapters/teams/invites';
import type { MemberRecord, TeamRecord } from '../../functions/adapters/teams/records';
import type { TeamChanges } from '../../functions/adapters/teams/changes';
import { ItemNotFoundError } from '../../functions/domain/errors';
import { TeamMemberNotFoundError, TeamNotFoundError } from '../../functions/domain/team-errors';
import { inviteLinkStatus, type InviteLink } from '../../functions/domain/team-invites';
import type { SharedHeadshot } from '../../functions/domain/team-shares';
import type { TeamRole } from '../../functions/domain/teams';
import { shareStore } from './team-share-store';

/**
 * An in-memory stand-in for the team adapters (functions/adapters/teams/*) for the use cases' unit tests: the same
 * functions, with the conditions their transactions hold (a member's role, a link's cap and expiry, an invitation's
 * link), so a use case's rule and the table's condition are both exercised without an emulator.
 */
export function teamStore(clock: () => Date = () => new Date('2026-11-29T12:00:00Z')) {
  const teams = new Map<string, TeamRecord>();
  const members = new Map<string, MemberRecord>();
  const myTeams = new Map<string, Set<string>>();
  const links = new Map<string, { teamId: string; link: InviteLink; tokenHash: string }>();
  const invitations = new Map<string, InvitationRecord>();
  /** The team's `SHARED#` items, keyed `<teamId>/<sub>/<headshotId>`. */
  const shared = new Map<string, SharedHeadshot>();
  const key = (teamId: string, sub: string) => `${teamId}/${sub}`;
  const mine = (sub: string) => myTeams.get(sub) ?? myTeams.set(sub, new Set()).get(sub)!;
  const shares = shareStore(shared, (teamId, sub) => members.get(key(teamId, sub)));
  const readLinks = async (teamId: string) =>
    [...links.values()].filter((l) => l.teamId === teamId).map((l) => structuredClone(l.link));
  const storeRevoke = async (teamId: string, linkId: string, now: string) => {
    const found = links.get(linkId);
    if (found?.teamId !== teamId) throw new ItemNotFoundError('This invitation link was not found.');
    found.link.revokedAt ??= now;
  };

  const store = {
    teams,
    members,
    links,
    invitations,
    shared,
    ...shares,
    getTeam: async (teamId: string) => structuredClone(teams.get(teamId)),
    getMember: async (teamId: string, sub: string) => structuredClone(members.get(key(teamId, sub))),
    listMembers: async (teamId: string) => [...members.values()].filter((m) => m.teamId === teamId),
    listMyTeams: async (sub: string) =>
      [...mine(sub)].flatMap((teamId) => {
        const team = teams.get(teamId);
        const member = members.get(key(teamId, sub));
        return team && member?.membership === 'joined' ? [{ team, member }] : [];
      }),
    storeTeam: async (team: TeamRecord, owner: MemberRecord) => {
      teams.set(team.teamId, structuredClone(team));
      members.set(key(team.teamId, owner.sub), structuredClone(owner));
      mine(owner.sub).add(team.teamId);
    },
    storeChanges: async (teamId: string, changes: TeamChanges) => {
      const team = teams.get(teamId);
      if (!team) throw new TeamNotFoundError();
      for (const [field, value] of Object.entries(changes)) {
        if (value !== undefined) Object.assign(team, { [field]: value });
      }
    },
    setRole: async (teamId: string, sub: string, role: 'admin' | 'member') => {
      const member = members.get(key(teamId, sub));
      if (member?.membership !== 'joined' || member.role === 'owner') throw new TeamMemberNotFoundError();
      member.role = role;
    },
    handOver: async (teamId: string, from: string, to: string) => {
      const team = teams.get(teamId)!;
      const old = members.get(key(teamId, from));
      const next = members.get(key(teamId, to));
      if (team.ownerSub !== from || old?.role !== 'owner' || next?.membership !== 'joined') {
        throw new TeamMemberNotFoundError();
      }
      team.ownerSub = to;
      old.role = 'admin';
      next.role = 'owner';
    },
    endMembership: async (
      teamId: string,
      sub: string,
      role: TeamRole,
      how: 'removed' | 'left',
      now: string,
    ) => {
      const member = members.get(key(teamId, sub));
      if (member?.membership !== 'joined' || member.role !== role || role === 'owner') {
        throw new TeamMemberNotFoundError();
      }
      Object.assign(member, { membership: how, leftAt: now, sharedCount: 0, email: '' });
      mine(sub).delete(teamId);
      await shares.deleteSharedOf(teamId, sub);
    },
    closeOwnTeam: async (teamId: string, sub: string, now: string) => {
      const member = members.get(key(teamId, sub));
      const team = teams.get(teamId);
      if (member?.membership === 'joined' && member.role === 'owner' && team?.ownerSub === sub) {
        Object.assign(member, { membership: 'left', leftAt: now, sharedCount: 0, email: '' });
        Object.assign(team, { closedAt: now });
        mine(sub).delete(teamId);
      }
      await shares.deleteSharedOf(teamId, sub);
    },
    putInviteLink: async (teamId: string, link: InviteLink, tokenHash: string) => {
      links.set(link.linkId, { teamId, link: structuredClone(link), tokenHash });
    },
    readLinks,
    storeRevoke,
    /** adapters/teams/invites.ts `listInviteLinks`, `revokeInviteLink` (the names account deletion's ports use). */
    listInviteLinks: readLinks,
    revokeInviteLink: storeRevoke,
    findInvite: async (tokenHash: string) => {
      const found = [...links.values()].find((l) => l.tokenHash === tokenHash);
      return found && { teamId: found.teamId, link: structuredClone(found.link) };
    },
    joinTeam: async (
      link: InviteLink,
      member: MemberRecord,
      previous: MemberRecord | undefined,
      now: string,
    ) => {
      const stored = links.get(link.linkId)!.link;
      if (inviteLinkStatus(stored, Date.parse(now)) !== 'valid') throw new JoinRefusedError('link');
      const current = members.get(key(member.teamId, member.sub));
      if (previous ? current?.membership === 'joined' : current) throw new JoinRefusedError('already-member');
      if (!teams.has(member.teamId)) throw new JoinRefusedError('team-gone');
      stored.uses += 1;
      members.set(
        key(member.teamId, member.sub),
        previous
          ? { ...previous, membership: 'joined', role: member.role, email: member.email, joinedAt: now }
          : { ...member },
      );
      delete members.get(key(member.teamId, member.sub))!.leftAt;
      mine(member.sub).add(member.teamId);
      if (link.email) invitations.get(`${member.teamId}/${link.email}`)!.acceptedAt = now;
    },
    listInvitations: async (teamId: string) =>
      [...invitations.entries()]
        .filter(([k]) => k.startsWith(`${teamId}/`))
        .map(([, v]) => structuredClone(v)),
    getInvitation: async (teamId: string, email: string) =>
      structuredClone(invitations.get(`${teamId}/${email}`)),
    putInvitation: async (
      teamId: string,
      invitation: InvitationRecord,
      link: InviteLink,
      tokenHash: string,
      replaces?: InvitationRecord,
    ) => {
      const current = invitations.get(`${teamId}/${invitation.email}`);
      if (replaces) {
        if (current?.linkId !== replaces.linkId || current.sends !== replaces.sends || current.acceptedAt)
          return false;
        links.get(replaces.linkId)!.link.revokedAt ??= invitation.sentAt;
      } else if (current && !current.acceptedAt && current.expiresAt >= invitation.sentAt) {
        return false;
      }
      invitations.set(`${teamId}/${invitation.email}`, structuredClone(invitation));
      links.set(link.linkId, { teamId, link: structuredClone(link), tokenHash });
      return true;
    },
    now: clock,
  };
  return store;
}

/** A member item with defaults: joined, no allowance used. */
export function memberRecord(
  teamId: string,
  sub: string,
  role: TeamRole,
  email = `${sub}@acme.com`,
): MemberRecord {
  return {
    teamId,
    sub,
    role,
    email,
    membership: 'joined',
    joinedAt: '2026-11-20T10:00:00.000Z',
    generationsUsed: 0,
    editsUsed: 0,
    sharedCount: 0,
  };
}

/** A share of `sub`'s headshot with the team, made after {@link memberRecord}'s join, of the headshot's own files. */
export function sharedRecord(
  teamId: string,
  sub: string,
  headshotId: string,
  overrides: Partial<SharedHeadshot> = {},
): SharedHeadshot {
  return {
    teamId,
    sub,
    headshotId,
    sharedAt: '2026-11-21T10:00:00.000Z',
    style: 'professional',
    background: 'office',
    outfit: 'suit-and-tie',
    slot: 2,
    transparent: false,
    imageKey: `results/${sub}/G1/${headshotId}.jpg`,
    thumbnailKey: `results/${sub}/G1/${headshotId}.webp`,
    ...overrides,
  };
}
