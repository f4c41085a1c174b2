import type { WizardDraft } from '../../../../functions/contracts/draft';
import { UserNotFoundError } from '../../../../functions/domain/credits';
import { AccountDeletedError, AccountDeletingError } from '../../../../functions/domain/errors';
import { WIZARD_DRAFT_RETENTION_DAYS } from '../../../../functions/domain/retention';

/** An account's state as the draft's write checks it (the user item's `deletingAt` / `deletedAt`). */
export type AccountState = 'active' | 'deleting' | 'deleted';

/**
 * The wizard drafts of adapters/wizard-drafts.ts in memory: one draft per user that expires
 * {@link WIZARD_DRAFT_RETENTION_DAYS} after its last save (read as none from then on, as the adapter reads an item
 * past its TTL), and a write refused as the adapter's transaction refuses it: without a user, or for an account
 * being or already deleted. Pass its methods as ports; read {@link drafts} in assertions.
 */
export class FakeWizardDrafts {
  readonly drafts = new Map<string, { draft: WizardDraft; expiresAt: number }>();
  readonly accounts = new Map<string, AccountState>();

  readonly getWizardDraft = async (sub: string, now = new Date()): Promise<WizardDraft | undefined> => {
    const stored = this.drafts.get(sub);
    if (!stored || stored.expiresAt <= now.getTime()) return undefined;
    return structuredClone(stored.draft);
  };

  readonly putWizardDraft = async (sub: string, draft: WizardDraft, now = new Date()): Promise<void> => {
    const state = this.accounts.get(sub);
    if (!state) throw new UserNotFoundError();
    if (state === 'deleting') throw new AccountDeletingError();
    if (state === 'deleted') throw new AccountDeletedError();
    const expiresAt = now.getTime() + WIZARD_DRAFT_RETENTION_DAYS * 86_400_000;
    this.drafts.set(sub, { draft: structuredClone(draft), expiresAt });
  };

  readonly deleteWizardDraft = async (sub: string): Promise<void> => {
    this.drafts.delete(sub);
  };
}
