import type { AccountDeletionState } from '../../../../functions/adapters/account-deletion';
import type { FakeLedger } from './ledger';
import type { FakePurchases } from './purchases';

/**
 * The table side of "delete my account" (adapters/account-deletion.ts) and the user pool (adapters/user-pool.ts) in
 * memory, over a {@link FakeLedger}: the deletion's state on the user item (`deletingAt`, the pseudonym), the
 * accounting's move (the balance and ledger entries go to the pseudonymous user; the user item becomes a tombstone
 * without e-mail), and the Cognito users. Every step can run again, as the real ones can.
 */
export class FakeAccounts {
  /** Cognito usernames that exist. */
  readonly poolUsers = new Set<string>();
  /** Pseudonyms whose link to the user was forgotten at the end of a deletion. */
  readonly forgotten = new Set<string>();
  private readonly pseudonyms = new Map<string, string>();
  private sequence = 0;

  constructor(
    private readonly ledger: FakeLedger,
    private readonly purchases: FakePurchases,
  ) {}

  /** The pseudonym a deletion of `sub` picked (while it is still linked). */
  pseudonymOf(sub: string): string | undefined {
    return this.pseudonyms.get(sub);
  }

  readonly beginAccountDeletion = async (
    sub: string,
    now = new Date(),
  ): Promise<AccountDeletionState | undefined> => {
    const user =
      this.ledger.users.get(sub) ?? this.ledger.seedUser(sub, 0, { signupBonus: 'already-claimed' });
    if (user.deletedAt && !this.pseudonyms.has(sub)) return undefined;
    user.deletingAt ??= now.toISOString();
    if (!this.pseudonyms.has(sub)) this.pseudonyms.set(sub, `anon-${++this.sequence}`);
    return {
      pseudonymId: this.pseudonyms.get(sub)!,
      ...(user.deletedAt ? { deletedAt: user.deletedAt } : {}),
    };
  };

  readonly cancelAccountDeletion = async (sub: string, pseudonymId: string) => {
    const user = this.ledger.users.get(sub);
    if (!user || user.deletedAt || this.pseudonyms.get(sub) !== pseudonymId) return;
    delete user.deletingAt;
    this.pseudonyms.delete(sub);
  };

  /** Every pending purchase of `sub` counts as recent (the fake's clock does not move). */
  readonly recentCheckoutSessionIds = async (sub: string) =>
    [...this.purchases.pending.keys()]
      .filter((key) => key.startsWith(`${sub}|`))
      .map((key) => key.split('|')[1]!);

  readonly moveAccountingToPseudonym = async (sub: string, pseudonymId: string, now = new Date()) => {
    const user = this.ledger.users.get(sub);
    if (!user || user.deletedAt) return 0;
    const credits = user.credits;
    this.ledger.seedUser(pseudonymId, 0, {
      email: '',
      deletingAt: now.toISOString(),
      deletedAt: now.toISOString(),
    });
    this.ledger.users.get(pseudonymId)!.credits = credits;
    this.ledger.entries.set(pseudonymId, this.ledger.entries.get(sub) ?? []);
    this.ledger.entries.delete(sub);
    Object.assign(user, { credits: 0, email: '', displayName: '', deletedAt: now.toISOString() });
    return credits;
  };

  readonly deleteUserPoolUser = async (username: string) => {
    this.poolUsers.delete(username);
  };

  readonly finishAccountDeletion = async (sub: string) => {
    const pseudonym = this.pseudonyms.get(sub);
    if (pseudonym) this.forgotten.add(pseudonym);
    this.pseudonyms.delete(sub);
  };
}
