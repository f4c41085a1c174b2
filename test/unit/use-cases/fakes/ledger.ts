import {
  CreditChangeGuardError,
  RelatedItemConflictError,
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
import { commitEffects } from './transactions';

/** A user item as the fake keeps it: the record, and the flag a reversal larger than the balance sets. */
export type FakeUser = UserRecord & { flaggedAt?: string; flagReason?: string };

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

  /** The balance of `sub` (0 for an unknown user). */
  balance(sub: string): number {
    return this.users.get(sub)?.credits ?? 0;
  }

  /** Σ of the ledger's deltas of `sub`: equal to {@link balance} unless a change broke the invariant. */
  ledgerSum(sub: string): number {
    return (this.entries.get(sub) ?? []).reduce((sum, entry) => sum + entry.delta, 0);
  }

  /** The ledger entries of `sub` with one reason, oldest first. */
  entriesOf(sub: string, reason?: LedgerReason): LedgerEntry[] {
    return (this.entries.get(sub) ?? []).filter((entry) => !reason || entry.reason === reason);
  }

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

  readonly listLedger = async (sub: string): Promise<LedgerEntry[]> => [...this.entriesOf(sub)].reverse();

  private marker(sub: string, reason: LedgerReason, ref: string) {
    return `${sub}|${reason}|${ref}`;
  }

  private record(sub: string, delta: number, reason: LedgerReason, ref: string) {
    const list = this.entries.get(sub) ?? [];
    list.push({ id: String(++this.sequence).padStart(26, '0'), delta, reason, ref, createdAt: NOW });
    this.entries.set(sub, list);
  }

  /** One credit change, checked whole before any of it applies (the real one is one transaction). */
  private async apply(change: CreditChange, reason: LedgerReason, sign: 1 | -1): Promise<CreditChangeResult> {
    assertCreditAmount(change.amount);
    const { sub, amount, ref, related, profileGuard, extraItems = [] } = change;
    const user = this.users.get(sub);
    if (this.markers.has(this.marker(sub, reason, ref)))
      return { applied: false, balance: user?.credits ?? 0 };
    if (!user) throw new UserNotFoundError();
    if (sign === -1 && user.credits < amount) throw new InsufficientCreditsError(user.credits, amount);
    const guard = profileGuard ? this.profileEffects.get(profileGuard) : undefined;
    if (profileGuard && !guard) throw new Error('A profileGuard no fake made reached the fake ledger');
    if (guard && !guard.check(user)) throw new CreditChangeGuardError('profile', structuredClone(user));
    const relatedKey = related ? `${String(related.item.PK)}|${String(related.item.SK)}` : undefined;
    if (relatedKey && this.items.has(relatedKey))
      throw new RelatedItemConflictError(`The ${String(related?.item.SK)} item already exists`);
    const failed = commitEffects(extraItems);
    if (failed >= 0) throw new CreditChangeGuardError(failed, structuredClone(user));
    const settle = sign === -1 ? 0 : settlement(user.creditsOwed, amount);
    user.credits += sign * amount - settle;
    user.creditsOwed -= settle;
    this.record(sub, sign * amount, reason, ref);
    if (settle > 0) this.record(sub, -settle, 'debt_settlement', `${reason}#${ref}`);
    this.markers.add(this.marker(sub, reason, ref));
    if (relatedKey && related) this.items.set(relatedKey, structuredClone(related.item));
    guard?.apply(user);
    return { applied: true, balance: user.credits };
  }
}
