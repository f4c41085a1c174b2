import type { QuotaSubject, QuotaUse } from '../../../../functions/adapters/quotas';
import { AccountDeletedError, AccountDeletingError } from '../../../../functions/domain/errors';
import { quotaExceeded, type QuotaRule } from '../../../../functions/domain/quotas';

/**
 * In-memory quota counters (adapters/quotas.ts): one count per subject and rule (one window: the tests' clock does
 * not move), refusing a use past the rule's limit with the real `QuotaExceededError`, and refusing a subject whose
 * account is being deleted or was deleted, as the real counter's transaction does.
 */
export class FakeQuotas {
  /** Units used, by `<sub>|<rule name>`. */
  readonly used = new Map<string, number>();
  /** Units given back by `release()`, by `<sub>|<rule name>`. */
  readonly released = new Map<string, number>();
  /** Subjects whose account deletion has started (409) or ended (410). */
  readonly deleting = new Set<string>();
  readonly deleted = new Set<string>();

  /** Units of `rule` that `sub` has used (after any release). */
  usedBy(sub: string, ruleName: string): number {
    return this.used.get(`${sub}|${ruleName}`) ?? 0;
  }

  readonly consumeQuota = async (subject: QuotaSubject, rule: QuotaRule, amount = 1): Promise<QuotaUse> => {
    if (this.deleted.has(subject.sub)) throw new AccountDeletedError();
    if (this.deleting.has(subject.sub)) throw new AccountDeletingError();
    const key = `${subject.sub}|${rule.name}`;
    const used = this.used.get(key) ?? 0;
    if (used + amount > rule.limit) throw quotaExceeded(rule, Date.now());
    this.used.set(key, used + amount);
    return {
      resetAt: Math.floor(Date.now() / 1000) + rule.windowSeconds,
      release: async () => {
        this.used.set(key, (this.used.get(key) ?? 0) - amount);
        this.released.set(key, (this.released.get(key) ?? 0) + amount);
      },
    };
  };
}
