import {
  accountOf,
  CreditChangeGuardError,
  RelatedItemConflictError,
  type AccountBalance,
  type CreditChange,
  type CreditChangeResult,
  type LedgerEntry,
  type ProfileGuard,
  type UserRecord,
} from '../../../../functions/adapters/ledger';
import {
  assertCreditAmount,
  displayNameFromEmail,
  InsufficientCreditsError,
  settlement,
  SIGNUP_BONUS_CREDITS,
  UserNotFoundError,
  type LedgerReason,
} from '../../../../functions/domain/credits';
import { isDisposableAddress } from '../../../../functions/domain/disposable-addresses';
import {
  ledgerAccount,
  type AccountRef,
  type LedgerAccount,
} from '../../../../functions/domain/ledger-account';
import { TeamNotFoundError } from '../../../../functions/domain/team-errors';
import { commitEffects } from './transactions';

/** A user item as the fake keeps it: the record, and the flag a reversal larger than the balance sets. */
export type FakeUser = UserRecord & { flaggedAt?: string; flagReason?: string };

/**
 * A team item's ledger fields as the fake keeps them (`balance`, `creditsOwed`, the flag): the team store's own
 * `TeamRecord`s when the ledger is given its map (test/helpers/team-store.ts), so both fakes see one team.
 */
export interface FakeTeamHead {
  balance: number;
  creditsOwed: number;
  flaggedAt?: string;
  flagReason?: string;
}

/** What a fake `profileGuard` means: a condition on the user item and its change, in the credit change's commit. */
export interface ProfileEffect {
  check(user: FakeUser): boolean;
  apply(user: FakeUser): void;
}

/** A stored item of the table other than users and ledger entries (a purchase put with a grant), by `PK` + `SK`. */
export type Item = Record<string, unknown>;

const NOW = '2026-01-01T00:00:00.000Z';

/**
 * An in-memory ledger that really keeps balances (docs/architecture.md §2: credits = Σ ledger). It has the ledger
 * adapter's functions (adapters/ledger.ts) and its rules: every change is idempotent by reason + ref (a replay
 * returns `applied: false` and the balance), a spend or reversal needs the balance (`InsufficientCreditsError`),
 * a receipt first pays what the account owes (a `debt_settlement` entry), and a change commits with its related
 * item, its `extraItems` and its `profileGuard` all or nothing (`RelatedItemConflictError`,
 * `CreditChangeGuardError`). Pass its methods as ports; read its state in assertions.
 */
export class FakeLedger {
  /** @param teams the team items whose ledgers this fake keeps, by team id (empty: no team). */
  constructor(readonly teams: Map<string, FakeTeamHead> = new Map()) {}

  readonly users = new Map<string, FakeUser>();
  readonly entries = new Map<string, LedgerEntry[]>();
  /** Items put with a credit change (`related`), e.g. purchases: key `<PK>|<SK>`. */
  readonly items = new Map<string, Item>();
  /** Normalised e-mails whose sign-up bonus was already claimed by an earlier account. */
  readonly claimedBonuses = new Set<string>();
  private readonly markers = new Set<string>();
  private readonly profileEffects = new WeakMap<object, ProfileEffect>();
  private sequence = 0;

  /** A user with `credits` (one `purchase` entry of that size keeps credits = Σ ledger) and any other fields. */
  seedUser(sub: string, credits = 0, fields: Partial<FakeUser> = {}): FakeUser {
    const user: FakeUser = {
      id: sub,
      email: `${sub}@example.com`,
      displayName: sub,
      credits,
      creditsOwed: 0,
      signupBonus: 'granted',
      emailWhenReady: true,
      createdAt: NOW,
      updatedAt: NOW,
      ...fields,
    };
    this.users.set(sub, user);
    if (credits > 0) this.record(sub, credits, 'purchase', `seed-${sub}`);
    return user;
  }

  /** The balance of an account: a user's `sub` or a team's account (0 for an unknown one). */
  balance(owner: AccountRef): number {
    const account = ledgerAccount(owner);
    return account.kind === 'user'
      ? (this.users.get(account.sub)?.credits ?? 0)
      : (this.teams.get(account.teamId)?.balance ?? 0);
  }

  /** Σ of the ledger's deltas of an account: equal to {@link balance} unless a change broke the invariant. */
  ledgerSum(owner: AccountRef): number {
    return (this.entries.get(this.entryKey(owner)) ?? []).reduce((sum, entry) => sum + entry.delta, 0);
  }

  /** The ledger entries of an account with one reason, oldest first. */
  entriesOf(owner: AccountRef, reason?: LedgerReason): LedgerEntry[] {
    return (this.entries.get(this.entryKey(owner)) ?? []).filter(
      (entry) => !reason || entry.reason === reason,
    );
  }

  /** The meaning a fake `profileGuard` was given (to apply it to a user item outside the ledger's own head). */
  profileEffectOf(guard: ProfileGuard): ProfileEffect {
    const effect = this.profileEffects.get(guard);
    if (!effect) throw new Error('A profileGuard no fake made reached the fake ledger');
    return effect;
  }

  /** adapters/support/ledger-items.ts: an account's balance and debt. */
  readonly readAccountBalance = async (owner: AccountRef): Promise<AccountBalance | undefined> => {
    const head = this.head(ledgerAccount(owner));
    return head && { balance: head.balance, creditsOwed: head.creditsOwed };
  };

  /** A `profileGuard` whose meaning is `effect` (the fakes of the guards' builders return these). */
  profileGuard(effect: ProfileEffect): ProfileGuard {
    const guard: ProfileGuard = { condition: 'fake profile effect' };
    this.profileEffects.set(guard, effect);
    return guard;
  }

  readonly getUser = async (sub: string): Promise<UserRecord | undefined> => {
    const user = this.users.get(sub);
    return user ? structuredClone(user) : undefined;
  };

  /** adapters/user-creation.ts: 6 free credits once per person; 0 for a claimed or disposable address. */
  readonly ensureUser = async (sub: string, email: string): Promise<UserRecord> => {
    if (!this.users.has(sub)) {
      const normalised = email.toLowerCase();
      const signupBonus = isDisposableAddress(email)
        ? 'disposable-address'
        : this.claimedBonuses.has(normalised)
          ? 'already-claimed'
          : 'granted';
      this.seedUser(sub, 0, { email, displayName: displayNameFromEmail(email), signupBonus });
      if (signupBonus === 'granted') {
        this.claimedBonuses.add(normalised);
        this.users.get(sub)!.credits = SIGNUP_BONUS_CREDITS;
        this.record(sub, SIGNUP_BONUS_CREDITS, 'signup_bonus', sub);
        this.markers.add(this.marker(sub, 'signup_bonus', sub));
      }
    }
    return (await this.getUser(sub))!;
  };

  readonly grantCredits = (change: CreditChange) => this.apply(change, 'purchase', 1);
  readonly spendCredits = (change: CreditChange) => this.apply(change, 'generation', -1);
  readonly refundCredits = (change: CreditChange) => this.apply(change, 'refund', 1);
  readonly reverseCredits = (change: CreditChange) => this.apply(change, 'reversal', -1);
  readonly restoreCredits = (change: CreditChange) => this.apply(change, 'reversal_restored', 1);

  readonly listLedger = async (owner: AccountRef): Promise<LedgerEntry[]> =>
    [...this.entriesOf(owner)].reverse();

  /** A user's entries are kept under their `sub` (as before teams), a team's under `team:<teamId>`. */
  private entryKey(owner: AccountRef): string {
    const account = ledgerAccount(owner);
    return account.kind === 'user' ? account.sub : `team:${account.teamId}`;
  }

  private marker(owner: AccountRef, reason: LedgerReason, ref: string) {
    return `${this.entryKey(owner)}|${reason}|${ref}`;
  }

  private record(owner: AccountRef, delta: number, reason: LedgerReason, ref: string) {
    const key = this.entryKey(owner);
    const list = this.entries.get(key) ?? [];
    list.push({ id: String(++this.sequence).padStart(26, '0'), delta, reason, ref, createdAt: NOW });
    this.entries.set(key, list);
  }

  /** An account's head (the user item or the team item) as a balance and debt to change in place, or undefined. */
  head(account: LedgerAccount): FakeTeamHead | undefined {
    if (account.kind === 'team') return this.teams.get(account.teamId);
    const user = this.users.get(account.sub);
    if (!user) return undefined;
    return {
      get balance() {
        return user.credits;
      },
      set balance(value: number) {
        user.credits = value;
      },
      get creditsOwed() {
        return user.creditsOwed;
      },
      set creditsOwed(value: number) {
        user.creditsOwed = value;
      },
    };
  }

  /** One credit change, checked whole before any of it applies (the real one is one transaction). */
  private async apply(change: CreditChange, reason: LedgerReason, sign: 1 | -1): Promise<CreditChangeResult> {
    assertCreditAmount(change.amount);
    const { amount, ref, related, profileGuard, extraItems = [] } = change;
    const account = accountOf(change);
    const head = this.head(account);
    const user = account.kind === 'user' ? this.users.get(account.sub) : undefined;
    const copy = () => (user ? structuredClone(user) : undefined);
    if (this.markers.has(this.marker(account, reason, ref)))
      return { applied: false, balance: head?.balance ?? 0 };
    if (!head) throw account.kind === 'user' ? new UserNotFoundError() : new TeamNotFoundError();
    if (sign === -1 && head.balance < amount) throw new InsufficientCreditsError(head.balance, amount);
    const guard = profileGuard ? this.profileEffectOf(profileGuard) : undefined;
    // A team's head takes only the flag of a reversal (its effect reads no user field).
    if (guard && !guard.check((user ?? head) as FakeUser))
      throw new CreditChangeGuardError('profile', copy());
    const relatedKey = related ? `${String(related.item.PK)}|${String(related.item.SK)}` : undefined;
    if (relatedKey && this.items.has(relatedKey))
      throw new RelatedItemConflictError(`The ${String(related?.item.SK)} item already exists`);
    const failed = commitEffects(extraItems);
    if (failed >= 0) throw new CreditChangeGuardError(failed, copy());
    const settle = sign === -1 ? 0 : settlement(head.creditsOwed, amount);
    head.balance += sign * amount - settle;
    head.creditsOwed -= settle;
    this.record(account, sign * amount, reason, ref);
    if (settle > 0) this.record(account, -settle, 'debt_settlement', `${reason}#${ref}`);
    this.markers.add(this.marker(account, reason, ref));
    if (relatedKey && related) this.items.set(relatedKey, structuredClone(related.item));
    guard?.apply((user ?? head) as FakeUser);
    return { applied: true, balance: head.balance };
  }
}
