import type { MemberRecord } from '../../../../functions/adapters/teams/records';
import { ALLOWANCE_LIMITS, type SeatUse } from '../../../../functions/domain/team-seats';
import { effectItem, type TransactItem } from './transactions';

/**
 * adapters/teams/allowance.ts `seatUseItem` over a team store's member items (test/helpers/team-store.ts, keyed
 * `<teamId>/<sub>`): `+1` only for a current member under the counter's limit, `-1` only above 0 — the conditions the
 * real update holds — committed with the ledger's fake transaction.
 */
export function fakeSeatUseItem(members: Map<string, MemberRecord>) {
  return (use: SeatUse, delta: 1 | -1): TransactItem => {
    const member = () => members.get(`${use.teamId}/${use.sub}`);
    return effectItem({
      check: () => {
        const m = member();
        if (!m) return false;
        return delta === 1
          ? m.membership === 'joined' && m[use.counter] < ALLOWANCE_LIMITS[use.counter]
          : m[use.counter] >= 1;
      },
      apply: () => {
        member()![use.counter] += delta;
      },
    });
  };
}
