import { TEAM_SK, teamMemberSk, teamPk, userPk, userTeamSk } from '../support/keys';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { deleteSharedOf } from './changes';
import { table } from './records';

/**
 * The end of a team whose owner deletes their account while alone in it (docs/teams.md "Privacy and retention"):
 * nobody is left who may run it, so it is closed rather than handed over.
 */

/**
 * Ends the owner's membership of a team they are alone in: the member item `left` (their allowance use kept, their
 * address not), `closedAt` on the team item, and their "my teams" item deleted, in one transaction; then their
 * shares leave the team. The team's ledger and purchases stay, for accounting. Idempotent: a team already closed by
 * this owner is left as it is.
 */
export async function closeOwnTeam(teamId: string, sub: string, now: string): Promise<void> {
  try {
    await transactWrite([
      {
        Update: {
          TableName: table(),
          Key: { PK: teamPk(teamId), SK: teamMemberSk(sub) },
          UpdateExpression: 'SET membership = :left, leftAt = :now, sharedCount = :zero, email = :gone',
          ConditionExpression: 'membership = :joined AND #role = :owner',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: {
            ':left': 'left',
            ':now': now,
            ':zero': 0,
            ':gone': '',
            ':joined': 'joined',
            ':owner': 'owner',
          },
        },
      },
      {
        Update: {
          TableName: table(),
          Key: { PK: teamPk(teamId), SK: TEAM_SK },
          UpdateExpression: 'SET closedAt = if_not_exists(closedAt, :now)',
          ConditionExpression: 'ownerSub = :sub',
          ExpressionAttributeValues: { ':now': now, ':sub': sub },
        },
      },
      { Delete: { TableName: table(), Key: { PK: userPk(sub), SK: userTeamSk(teamId) } } },
    ]);
  } catch (error) {
    if (!(cancellationCodes(error) ?? []).includes('ConditionalCheckFailed')) throw error;
  }
  await deleteSharedOf(teamId, sub);
}
