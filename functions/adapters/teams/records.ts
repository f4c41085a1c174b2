import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import type { TeamLook } from '../../domain/team-look';
import type { Membership, TeamRole } from '../../domain/teams';
import { documentClient } from '../support/aws';
import { queryAll } from '../support/query';
import { MEMBER_PREFIX, TEAM_SK, USER_TEAM_PREFIX, teamMemberSk, teamPk, userPk } from '../support/keys';

/**
 * The team and member items as the code sees them (docs/teams.md "Items"), and their reads. Timestamps are ISO 8601
 * UTC.
 */

/** `TEAM#<teamId>` / `TEAM`. */
export interface TeamRecord {
  teamId: string;
  name: string;
  ownerSub: string;
  /** Normalised (domain/teams.ts `normaliseDomain`); empty: no domain limit. */
  allowedDomains: string[];
  look: TeamLook;
  /** Credits in the team's ledger (seats bought, less spends, plus refunds). */
  balance: number;
  /** Credits a reversed seat purchase could not take back yet. */
  creditsOwed: number;
  createdAt: string;
}

/** `TEAM#<teamId>` / `MEMBER#<sub>`: kept after leaving, so the allowance counters survive re-joining. */
export interface MemberRecord {
  teamId: string;
  sub: string;
  role: TeamRole;
  email: string;
  membership: Membership;
  joinedAt: string;
  leftAt?: string;
  generationsUsed: number;
  editsUsed: number;
  sharedCount: number;
}

export const table = () => storageSettings().TABLE_NAME;

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** A TEAM item decoded. */
export function toTeam(item: Record<string, unknown>): TeamRecord {
  return {
    teamId: String(item.teamId),
    name: String(item.name),
    ownerSub: String(item.ownerSub),
    allowedDomains: (item.allowedDomains as string[] | undefined) ?? [],
    look: item.look as TeamLook,
    balance: num(item.balance),
    creditsOwed: num(item.creditsOwed),
    createdAt: String(item.createdAt),
  };
}

/** A MEMBER item decoded. */
export function toMember(item: Record<string, unknown>): MemberRecord {
  return {
    teamId: String(item.teamId),
    sub: String(item.sub),
    role: item.role as TeamRole,
    email: String(item.email),
    membership: item.membership as Membership,
    joinedAt: String(item.joinedAt),
    ...(typeof item.leftAt === 'string' ? { leftAt: item.leftAt } : {}),
    generationsUsed: num(item.generationsUsed),
    editsUsed: num(item.editsUsed),
    sharedCount: num(item.sharedCount),
  };
}

/** The team item (strongly consistent), or `undefined`. */
export async function getTeam(teamId: string): Promise<TeamRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: { PK: teamPk(teamId), SK: TEAM_SK }, ConsistentRead: true }),
  );
  return Item ? toTeam(Item) : undefined;
}

/** A member item (strongly consistent; also a member who left or was removed), or `undefined`. */
export async function getMember(teamId: string, sub: string): Promise<MemberRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: teamPk(teamId), SK: teamMemberSk(sub) },
      ConsistentRead: true,
    }),
  );
  return Item ? toMember(Item) : undefined;
}

/** Every member item of the team (current and gone), one Query of its partition. */
export async function listMembers(teamId: string): Promise<MemberRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': teamPk(teamId), ':prefix': MEMBER_PREFIX },
    ConsistentRead: true,
  });
  return items.map(toMember);
}

/** The caller's teams: the ids of their "my teams" items, then each team and their member item. */
export async function listMyTeams(sub: string): Promise<{ team: TeamRecord; member: MemberRecord }[]> {
  const mine = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': USER_TEAM_PREFIX },
    ProjectionExpression: 'teamId',
  });
  const ids = mine.map((item) => String(item.teamId));
  const out: { team: TeamRecord; member: MemberRecord }[] = [];
  // BatchGetItem takes 100 keys: 50 teams (2 keys each) per call.
  for (let i = 0; i < ids.length; i += 50) {
    const keys = ids.slice(i, i + 50).flatMap((id) => [
      { PK: teamPk(id), SK: TEAM_SK },
      { PK: teamPk(id), SK: teamMemberSk(sub) },
    ]);
    const items = await batchGet(keys);
    const teams = new Map<string, TeamRecord>();
    const members = new Map<string, MemberRecord>();
    for (const item of items) {
      if (item.SK === TEAM_SK) teams.set(String(item.teamId), toTeam(item));
      else members.set(String(item.teamId), toMember(item));
    }
    for (const id of ids.slice(i, i + 50)) {
      const team = teams.get(id);
      const member = members.get(id);
      if (team && member?.membership === 'joined') out.push({ team, member });
    }
  }
  return out;
}

/** BatchGetItem of ≤ 100 keys, asking again for the unprocessed ones (capped backoff). */
async function batchGet(keys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 50 * 2 ** attempt)));
    const answer = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending, ConsistentRead: true } } }),
    );
    items.push(...(answer.Responses?.[table()] ?? []));
    pending = answer.UnprocessedKeys?.[table()]?.Keys ?? [];
    if (attempt > 8 && pending.length > 0) throw new Error('BatchGetItem left keys unprocessed');
  }
  return items;
}
