import { ulid } from 'ulid';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { createTeam as storeTeam, updateTeam as storeChanges } from '../adapters/teams/changes';
import type { MemberRecord, TeamRecord } from '../adapters/teams/records';
import type { CreateTeamBody, Team, UpdateTeamBody } from '../contracts/teams';
import { NoEmailInTokenError } from '../domain/errors';
import { allowedDomains } from '../domain/team-domains';
import { normaliseLook, openLook } from '../domain/team-look';
import { normaliseTeamName } from '../domain/teams';
import { readTeamsAdapters, viewFor, type ReadTeamsPorts } from './read-teams';
import { teamAccess } from './team-access';
import { teamView } from './team-view';

/**
 * A team itself (docs/teams.md "Routes"): creating one and editing one (reading: use-cases/read-teams.ts).
 */

/** What these use cases need from the outside world. */
export interface TeamsPorts extends ReadTeamsPorts {
  /** Counts one team created against the caller's daily quota; throws `QuotaExceededError` when used up. */
  countTeamCreated: (sub: string) => Promise<unknown>;
  storeTeam: typeof storeTeam;
  storeChanges: typeof storeChanges;
  newId: () => string;
}

const adapters: TeamsPorts = {
  ...readTeamsAdapters,
  countTeamCreated: (sub) => consumeQuota({ sub }, quotaRules().teams),
  storeTeam,
  storeChanges,
  newId: ulid,
};

/** The caller as the team routes know them: `sub` and the e-mail of their ID token. */
export interface TeamCaller {
  sub: string;
  email: string | undefined;
}

/** A name the contract let through is always stored; this keeps the domain's rule the only one. */
function teamName(name: string): string {
  const clean = normaliseTeamName(name);
  if (clean === undefined) throw new RangeError('Invalid team name');
  return clean;
}

/**
 * `POST /api/teams`: a new team whose owner is the caller, with an open look and no seats.
 *
 * @throws {NoEmailInTokenError} when the caller's token has no e-mail (the dashboard lists members by it)
 * @throws {TeamDomainNotAllowedError} for a public or disposable mail domain
 * @throws {QuotaExceededError} past `QUOTA_TEAMS_PER_DAY`
 */
export async function createTeam(
  caller: TeamCaller,
  body: CreateTeamBody,
  ports: TeamsPorts = adapters,
): Promise<Team> {
  if (!caller.email) throw new NoEmailInTokenError();
  const domains = allowedDomains(body.allowedDomains ?? []);
  const name = teamName(body.name);
  await ports.countTeamCreated(caller.sub);
  const now = ports.now().toISOString();
  const team: TeamRecord = {
    teamId: ports.newId(),
    name,
    ownerSub: caller.sub,
    allowedDomains: domains,
    look: openLook(),
    balance: 0,
    creditsOwed: 0,
    createdAt: now,
  };
  const owner: MemberRecord = {
    teamId: team.teamId,
    sub: caller.sub,
    role: 'owner',
    email: caller.email.trim().toLowerCase(),
    membership: 'joined',
    joinedAt: now,
    generationsUsed: 0,
    editsUsed: 0,
    sharedCount: 0,
  };
  await ports.storeTeam(team, owner);
  return teamView(team, owner, { members: [owner], invitations: [] }, ports.now().getTime());
}

/**
 * `PATCH /api/teams/{teamId}` (owner/admin): the name, allowed domains and look, normalised.
 *
 * @throws {TeamNotFoundError} for a non-member; {TeamForbiddenError} for a member
 * @throws {TeamDomainNotAllowedError} for a public or disposable mail domain
 */
export async function updateTeam(
  teamId: string,
  sub: string,
  body: UpdateTeamBody,
  ports: TeamsPorts = adapters,
): Promise<Team> {
  const { team, member } = await teamAccess(teamId, sub, 'edit-team', ports);
  const changes = {
    name: body.name === undefined ? undefined : teamName(body.name),
    allowedDomains: body.allowedDomains === undefined ? undefined : allowedDomains(body.allowedDomains),
    look: body.look === undefined ? undefined : normaliseLook(body.look),
  };
  await ports.storeChanges(teamId, changes, ports.now().toISOString());
  const updated: TeamRecord = {
    ...team,
    ...(changes.name === undefined ? {} : { name: changes.name }),
    ...(changes.allowedDomains === undefined ? {} : { allowedDomains: changes.allowedDomains }),
    ...(changes.look === undefined ? {} : { look: changes.look }),
  };
  return viewFor(updated, member, ports);
}
