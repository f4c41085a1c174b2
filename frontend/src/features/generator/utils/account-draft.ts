import {
  DRAFT_PHOTO_NAME_MAX_CHARS,
  DRAFT_PREVIEW_MAX_CHARS,
  draftPhotoSchema,
  type AccountDraft,
} from '../../../lib/api/contracts';
import { deleteAccountDraft } from '../api/delete-draft';
import { getAccountDraft } from '../api/get-draft';
import { saveAccountDraft } from '../api/save-draft';
import type { Photo } from '../hooks/use-photo-uploads';
import { DEFAULT_OUTFIT_ID } from './content';
import { loadDraft, saveDraft, type WizardDraft } from './wizard-draft';

/**
 * The wizard's draft kept with the account (issue 35 item 4; `GET`/`PUT`/`DELETE /api/draft`,
 * functions/contracts/draft.ts), beside the tab's own draft in `sessionStorage` (./wizard-draft.ts), which stays
 * the fast path: a tab that has a draft resumes it at once, a tab without one (a reopened browser, another device)
 * asks the account first. Changes are kept a moment after the last one, and as the page is hidden.
 */

/** What the screen says while the account's draft is fetched (docs/product-spec.md §2 "Generator wizard"). */
export const ACCOUNT_DRAFT_TEXT = { resuming: 'Picking up where you left off…' } as const;

/** How long after the last change the draft is sent to the account, in ms: a burst of changes is one save. */
export const ACCOUNT_DRAFT_DELAY_MS = 1000;

/** The draft API calls (./api), replaceable in tests. */
export interface AccountDraftApi {
  get: (signal?: AbortSignal) => Promise<AccountDraft | null>;
  save: (draft: AccountDraft, keepalive?: boolean) => Promise<void>;
  remove: () => Promise<void>;
}

/** The preview a photo can carry to the account: its `data:` JPEG within the contract's bounds, else none. */
function previewOf(photo: Photo): string | null {
  const preview = photo.previewDataUrl ?? photo.previewUrl;
  if (!preview || preview.length > DRAFT_PREVIEW_MAX_CHARS) return null;
  const checked = draftPhotoSchema.safeParse({ key: 'k', name: '', preview });
  return checked.success ? preview : null;
}

/** The wizard's draft as the account keeps it: stored photos only (key, name, preview), the choices, the step. */
export function toAccountDraft(draft: WizardDraft): AccountDraft {
  return {
    step: draft.step,
    style: draft.style,
    background: draft.background,
    // Own clothing is what an absent outfit means: left out, a draft kept before outfits reads as unchanged.
    ...(draft.outfit && draft.outfit !== DEFAULT_OUTFIT_ID ? { outfit: draft.outfit } : {}),
    photos: draft.photos
      .filter((p) => p.status === 'uploaded' && p.key)
      .map((p) => ({
        key: p.key!,
        name: p.name.slice(0, DRAFT_PHOTO_NAME_MAX_CHARS),
        preview: previewOf(p),
      })),
  };
}

/** The account's draft as the wizard shows it: each photo stored, its preview the one kept (or a placeholder). */
export function fromAccountDraft(draft: AccountDraft): WizardDraft {
  return {
    step: draft.step,
    style: draft.style,
    background: draft.background,
    ...(draft.outfit ? { outfit: draft.outfit } : {}),
    photos: draft.photos.map((p) => ({
      id: `account-${p.key}`,
      name: p.name,
      previewUrl: p.preview,
      previewDataUrl: p.preview,
      status: 'uploaded',
      progress: 100,
      key: p.key,
      error: null,
    })),
  };
}

const EMPTY = JSON.stringify(toAccountDraft({ step: 1, style: null, background: null, photos: [] }));

const realApi: AccountDraftApi = {
  get: getAccountDraft,
  save: saveAccountDraft,
  remove: deleteAccountDraft,
};

/**
 * Keeps the wizard's draft in step with the account: {@link resume} on entering the generator, {@link keep} on
 * every change, {@link forget} when the draft has served (a generation started) or is discarded. It remembers what
 * the account holds as far as this tab knows, so an unchanged draft is never sent again — above all, the empty
 * wizard shown while the account's draft could not be read never erases it. Failures are silent: the draft is a
 * convenience, and the tab's own draft still holds everything.
 */
export class AccountDraftSync {
  /** The JSON of the draft the account holds as far as this tab knows; undefined when unknown. */
  private kept: string | undefined;
  private pending: { draft: AccountDraft; text: string; timer: ReturnType<typeof setTimeout> } | undefined;
  private listening = false;

  constructor(
    private readonly api: AccountDraftApi = realApi,
    private readonly delayMs = ACCOUNT_DRAFT_DELAY_MS,
  ) {}

  /**
   * True when this tab has a draft of its own: the wizard opens on it at once, without asking the account, and it
   * counts as what the account holds, so only a change is sent — a tab reopened on an older draft never overwrites
   * a newer one saved on another device just by opening. False: {@link resume} first.
   */
  openTabDraft(): boolean {
    const own = loadDraft();
    if (own) this.kept = JSON.stringify(toAccountDraft(own));
    return own !== null;
  }

  /**
   * Fetches the account's draft into the tab's (`sessionStorage`), where the wizard reads it on opening. Never
   * throws: a draft that cannot be read is treated as none (and is not overwritten until the wizard changes).
   */
  async resume(signal?: AbortSignal): Promise<void> {
    try {
      const draft = await this.api.get(signal);
      const wizard = draft ? fromAccountDraft(draft) : null;
      if (wizard) saveDraft(wizard);
      this.kept = wizard ? JSON.stringify(toAccountDraft(wizard)) : EMPTY;
    } catch {
      this.kept = EMPTY;
    }
  }

  /** Sends `draft` to the account {@link ACCOUNT_DRAFT_DELAY_MS} after the last change, unless the account has it. */
  keep(draft: WizardDraft): void {
    this.cancel();
    const account = toAccountDraft(draft);
    const text = JSON.stringify(account);
    if (text === this.kept) return;
    this.listen();
    this.pending = { draft: account, text, timer: setTimeout(() => this.flush(), this.delayMs) };
  }

  /** Sends a waiting change now (the page is being hidden: it may not come back). */
  flush(keepalive = false): void {
    const pending = this.pending;
    if (!pending) return;
    this.cancel();
    this.kept = pending.text;
    this.api.save(pending.draft, keepalive).catch(() => {
      if (this.kept === pending.text) this.kept = undefined;
    });
  }

  /** Deletes the account's draft (and drops a change still waiting). */
  forget(): void {
    this.cancel();
    this.kept = EMPTY;
    this.api.remove().catch(() => {
      this.kept = undefined;
    });
  }

  private cancel(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = undefined;
  }

  // A phone closes tabs without warning: a change still waiting is sent as the page is hidden.
  private listen(): void {
    if (this.listening || typeof document === 'undefined') return;
    this.listening = true;
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.flush(true);
    });
  }
}

/** The one sync of the SPA (one wizard at a time). */
export const accountDraft = new AccountDraftSync();
