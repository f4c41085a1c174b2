import { afterEach } from 'vitest';
import { expectLedgerBalanced } from '../helpers/ledger';

/**
 * Registers an `afterEach` that checks the ledger invariant — credits = Σ ledger deltas, never negative — for every
 * user the test touched, then forgets them. Call once per test file, at the top level.
 *
 * @returns `touch(sub)`: marks a user as touched by the current test (returns the sub, for chaining)
 */
export function checkLedgersAfterEachTest(): (sub: string) => string {
  const touched = new Set<string>();
  afterEach(async () => {
    const subs = [...touched];
    touched.clear();
    for (const sub of subs) await expectLedgerBalanced(sub);
  });
  return (sub: string) => {
    touched.add(sub);
    return sub;
  };
}
