import type { TransactItem } from '../support/ledger-items';
import { teamMemberSk, teamPk } from '../support/keys';
import { ALLOWANCE_LIMITS, type SeatUse } from '../../domain/team-seats';
import { table } from './records';

/**
 * A member's allowance counters (`generationsUsed`, `editsUsed` on `TEAM#<teamId>` / `MEMBER#<sub>`: docs/teams.md
 * "Money") as items of the ledger's transaction that spends or refunds the team's credits, so the counter and the
 * team's balance move together or not at all.
 */

/**
 * The member-item update of a seat's use: `+1` when a team-paid generation starts — only for a current member whose
 * counter is under its limit (domain/team-seats.ts `ALLOWANCE_LIMITS`), so parallel starts cannot both pass — or `-1`
 * when one that delivered nothing is refunded (only while the counter is above 0; the refund's idempotency marker
 * makes it happen once).
 */
export function seatUseItem(use: SeatUse, delta: 1 | -1): TransactItem {
  const start = delta === 1;
  return {
    Update: {
      TableName: table(),
      Key: { PK: teamPk(use.teamId), SK: teamMemberSk(use.sub) },
      UpdateExpression: 'SET #counter = if_not_exists(#counter, :zero) + :delta',
      ConditionExpression: start
        ? 'membership = :joined AND (attribute_not_exists(#counter) OR #counter < :limit)'
        : 'attribute_exists(PK) AND #counter >= :one',
      ExpressionAttributeNames: { '#counter': use.counter },
      ExpressionAttributeValues: start
        ? { ':zero': 0, ':delta': 1, ':joined': 'joined', ':limit': ALLOWANCE_LIMITS[use.counter] }
        : { ':zero': 0, ':delta': -1, ':one': 1 },
    },
  };
}
