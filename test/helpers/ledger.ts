import { expect } from 'vitest';
import { getUser, listLedger, readAccountBalance } from '../../functions/adapters/ledger';
import { teamAccount } from '../../functions/domain/ledger-account';

/** Asserts the ledger invariant for one user: balance = Σ ledger deltas, and never negative. */
export async function expectLedgerBalanced(sub: string): Promise<void> {
  const [user, entries] = await Promise.all([getUser(sub), listLedger(sub)]);
  const sum = entries.reduce((total, e) => total + e.delta, 0);
  expect(user?.credits ?? 0).toBe(sum);
  expect(user?.credits ?? 0).toBeGreaterThanOrEqual(0);
}

/** The refs of `sub`'s refund ledger entries, sorted (one per refunded headshot slot). */
export const refundRefs = async (sub: string) =>
  (await listLedger(sub))
    .filter((e) => e.reason === 'refund')
    .map((e) => e.ref)
    .sort();

/** Asserts the ledger invariant for a team (docs/teams.md "Money"): its balance = Σ its ledger deltas, never negative. */
export async function expectTeamLedgerBalanced(teamId: string): Promise<void> {
  const [head, entries] = await Promise.all([
    readAccountBalance(teamAccount(teamId)),
    listLedger(teamAccount(teamId)),
  ]);
  const sum = entries.reduce((total, e) => total + e.delta, 0);
  expect(head?.balance ?? 0).toBe(sum);
  expect(head?.balance ?? 0).toBeGreaterThanOrEqual(0);
}
