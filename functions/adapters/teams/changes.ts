import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TeamLook } from '../../domain/team-look';
import type { TeamRole } from '../../domain/teams';
import { TeamMemberNotFoundError, TeamNotFoundError } from '../../domain/team-errors';
import { documentClient } from '../support/aws';
import {
  TEAM_SK,
  memberSharedPrefix,
  teamMemberSk,
  teamPk,
  userPk,
  userShareSk,
  userTeamSk,
} from '../support/keys';
import { batchDelete, keyOf, queryAll } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { table, type MemberRecord, type TeamRecord } from './records';

/**
 * Writes of a team and its members (docs/teams.md "Items", "Roles"): each one transaction whose conditions hold the
 * rule on the table too, so two admins acting at once cannot break it.
 */

const failed = (error: unknown) =>
  (error as Error).name === 'ConditionalCheckFailedException' ||
  (cancellationCodes(error) ?? []).includes('ConditionalCheckFailed');

/** The "my teams" item of a member: only the id and when they joined (names and roles are read from the team). */
export function userTeamItem(sub: string, teamId: string, joinedAt: string) {
  return { PK: userPk(sub), SK: userTeamSk(teamId), type: 'user-team', teamId, joinedAt };
}

/** A member item as stored. */
export function memberItem(member: MemberRecord) {
  return { PK: teamPk(member.teamId), SK: teamMemberSk(member.sub), type: 'team-member', ...member };
}

/** Creates the team with its owner's member item and "my teams" item, in one transaction. */
export async function createTeam(team: TeamRecord, owner: MemberRecord): Promise<void> {
  await transactWrite([
    {
      Put: {
        TableName: table(),
        Item: { PK: teamPk(team.teamId), SK: TEAM_SK, type: 'team', ...team },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    { Put: { TableName: table(), Item: memberItem(owner), ConditionExpression: 'attribute_not_exists(PK)' } },
    { Put: { TableName: table(), Item: userTeamItem(owner.sub, team.teamId, owner.joinedAt) } },
  ]);
}

/** What `PATCH /api/teams/{teamId}` may change, already normalised. */
export interface TeamChanges {
  name?: string | undefined;
  allowedDomains?: string[] | undefined;
  look?: TeamLook | undefined;
}

/**
 * Sets the given fields of the team.
 *
 * @throws {TeamNotFoundError} when the team is gone
 */
export async function updateTeam(teamId: string, changes: TeamChanges, now: string): Promise<void> {
  const sets = ['updatedAt = :now'];
  const values: Record<string, unknown> = { ':now': now };
  const names: Record<string, string> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: teamPk(teamId), SK: TEAM_SK },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if (failed(error)) throw new TeamNotFoundError();
    throw error;
  }
}

/**
 * Sets a current member's role to `admin` or `member` (never the owner's: the condition keeps it).
 *
 * @throws {TeamMemberNotFoundError} when they are not a current, non-owner member
 */
export async function setRole(teamId: string, sub: string, role: 'admin' | 'member'): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: teamPk(teamId), SK: teamMemberSk(sub) },
        UpdateExpression: 'SET #role = :role',
        ConditionExpression: 'membership = :joined AND #role <> :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role, ':joined': 'joined', ':owner': 'owner' },
      }),
    );
  } catch (error) {
    if (failed(error)) throw new TeamMemberNotFoundError();
    throw error;
  }
}

/**
 * Hands the team over: `to` becomes its owner, `from` (the owner) an admin, and the team's `ownerSub` follows, in one
 * transaction.
 *
 * @throws {TeamMemberNotFoundError} when `to` is not a current member or `from` is no longer the owner
 */
export async function handOver(teamId: string, from: string, to: string): Promise<void> {
  const member = (sub: string, role: TeamRole, condition: string) => ({
    Update: {
      TableName: table(),
      Key: { PK: teamPk(teamId), SK: teamMemberSk(sub) },
      UpdateExpression: 'SET #role = :role',
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': role, ':joined': 'joined', ':owner': 'owner' },
    },
  });
  try {
    await transactWrite([
      {
        Update: {
          TableName: table(),
          Key: { PK: teamPk(teamId), SK: TEAM_SK },
          UpdateExpression: 'SET ownerSub = :to',
          ConditionExpression: 'ownerSub = :from',
          ExpressionAttributeValues: { ':to': to, ':from': from },
        },
      },
      member(from, 'admin', 'membership = :joined AND #role = :owner'),
      member(to, 'owner', 'membership = :joined AND #role <> :owner'),
    ]);
  } catch (error) {
    if (failed(error)) throw new TeamMemberNotFoundError();
    throw error;
  }
}

/**
 * Ends a membership: the member item is kept (`removed` or `left`, its counters with it) and the "my teams" item
 * deleted, in one transaction conditioned on the role the caller's rule was checked against; then the member's
 * shared headshots are taken out of the team (docs/teams.md "Privacy and retention").
 *
 * @throws {TeamMemberNotFoundError} when they are no longer a member with that role
 */
export async function endMembership(
  teamId: string,
  sub: string,
  role: TeamRole,
  how: 'removed' | 'left',
  now: string,
): Promise<void> {
  try {
    await transactWrite([
      {
        Update: {
          TableName: table(),
          Key: { PK: teamPk(teamId), SK: teamMemberSk(sub) },
          // The team keeps their allowance use (a seat is not spent twice), not their address: it is shown only
          // while they are a member, and re-joining sets it again (docs/teams.md "Privacy and retention").
          UpdateExpression: 'SET membership = :how, leftAt = :now, sharedCount = :zero, email = :gone',
          ConditionExpression: 'membership = :joined AND #role = :role AND #role <> :owner',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: {
            ':how': how,
            ':now': now,
            ':zero': 0,
            ':gone': '',
            ':joined': 'joined',
            ':role': role,
            ':owner': 'owner',
          },
        },
      },
      { Delete: { TableName: table(), Key: { PK: userPk(sub), SK: userTeamSk(teamId) } } },
    ]);
  } catch (error) {
    if (failed(error)) throw new TeamMemberNotFoundError();
    throw error;
  }
  await deleteSharedOf(teamId, sub);
}

/**
 * Deletes a member's shared headshots from the team (`SHARED#<sub>#…`), then the member's own records of them
 * (`USER#<sub>` / `SHARE#<headshotId>#<teamId>`, ./shares.ts). A removal that stops part way leaves shares the team
 * gallery never shows (their member is not `joined`, or joined again after sharing them: domain/team-shares.ts
 * `isCurrentShare`), and the member's records still name them, so deleting that headshot, the member's data or
 * account deletes them too.
 */
export async function deleteSharedOf(teamId: string, sub: string): Promise<void> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': teamPk(teamId), ':prefix': memberSharedPrefix(sub) },
    ProjectionExpression: 'PK, SK, headshotId',
    ConsistentRead: true,
  });
  await batchDelete(items.map(keyOf));
  await batchDelete(
    items.map((item) => ({ PK: userPk(sub), SK: userShareSk(String(item.headshotId), teamId) })),
  );
}
