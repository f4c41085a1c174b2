import type { TeamRecord } from '../../../../functions/adapters/teams/records';
import { teamAccount } from '../../../../functions/domain/ledger-account';
import { openLook } from '../../../../functions/domain/team-look';
import { memberRecord, teamStore } from '../../../helpers/team-store';
import { paymentsWorld } from './payments';

/** The team of the seat tests: `T1`, "Acme", with an owner, an admin and a member, and an empty ledger. */
export const SEAT_TEAM = { teamId: 'T1', account: teamAccount('T1') } as const;

/** A team item with an empty ledger (as `POST /api/teams` creates it). */
export function teamRecord(teamId: string, ownerSub: string, fields: Partial<TeamRecord> = {}): TeamRecord {
  return {
    teamId,
    name: 'Acme',
    ownerSub,
    allowedDomains: ['acme.com'],
    look: openLook(),
    balance: 0,
    creditsOwed: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...fields,
  };
}

/**
 * The payments world (fakes/payments.ts) over a team store (test/helpers/team-store.ts) whose team items carry the
 * team's ledger: the ledger fake changes `balance` and `creditsOwed` on the very `TeamRecord`s the team store reads, as
 * the real ledger changes the team item. Team `T1` has `owner`, `admin` and `member`; `ports` add the team reads.
 */
export function teamPaymentsWorld() {
  const store = teamStore();
  const world = paymentsWorld(store.teams);
  const { teamId } = SEAT_TEAM;
  store.teams.set(teamId, teamRecord(teamId, 'owner'));
  for (const role of ['owner', 'admin', 'member'] as const)
    store.members.set(`${teamId}/${role}`, memberRecord(teamId, role, role));
  return {
    ...world,
    store,
    ports: { ...world.ports, getTeam: store.getTeam, getMember: store.getMember },
  };
}
