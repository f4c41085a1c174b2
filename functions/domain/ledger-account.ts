import { payingTeam, type GenerationPayer } from './team-seats';

/**
 * Whose ledger a credit change moves (docs/architecture.md §2 "credits = Σ ledger"; docs/teams.md "Money"): a
 * customer's own (`USER#<sub>`, balance `credits` on the user item) or a team's (`TEAM#<teamId>`, balance `balance` on
 * the team item). Both keep the same entries, idempotency markers, purchases and debt (`creditsOwed`) under their own
 * partition, so one ledger adapter serves both and no use case branches on which it is. Pure: no I/O.
 */

/** A ledger: a customer's or a team's. */
export type LedgerAccount = { kind: 'user'; sub: string } | { kind: 'team'; teamId: string };

/**
 * How the purchase and reversal adapters are told whose items they read or write: a customer's `sub` (the common case,
 * and every caller from before teams) or a {@link LedgerAccount}.
 */
export type AccountRef = string | LedgerAccount;

/** A customer's own ledger. */
export const userAccount = (sub: string): LedgerAccount => ({ kind: 'user', sub });

/** A team's ledger. */
export const teamAccount = (teamId: string): LedgerAccount => ({ kind: 'team', teamId });

/** The account an {@link AccountRef} names (a string is a customer's `sub`). */
export function ledgerAccount(ref: AccountRef): LedgerAccount {
  return typeof ref === 'string' ? userAccount(ref) : ref;
}

/** `user:<sub>` / `team:<teamId>`: one string per account, for logs and in-memory maps. */
export function accountLabel(ref: AccountRef): string {
  const account = ledgerAccount(ref);
  return account.kind === 'user' ? `user:${account.sub}` : `team:${account.teamId}`;
}

/**
 * The ledger that paid a generation and takes back what it did not deliver: the team named by its `payer`, else its
 * owner's own (an item without `payer` is the customer's, as every generation before teams).
 */
export function payerAccount(generation: {
  userId: string;
  payer?: GenerationPayer | undefined;
}): LedgerAccount {
  const team = payingTeam(generation.payer);
  return team === undefined ? userAccount(generation.userId) : teamAccount(team);
}

/**
 * The purchase behind a payment, as the `PAYMENT_INTENT#` lookup records it: a team's seat purchase names its team
 * (the buyer is one of its admins), a credit pack only its buyer.
 */
export function purchaseAccount(lookup: { sub: string; teamId?: string | undefined }): LedgerAccount {
  return lookup.teamId === undefined ? userAccount(lookup.sub) : teamAccount(lookup.teamId);
}
