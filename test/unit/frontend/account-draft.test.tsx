// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WizardDraft as AccountDraft } from '../../../functions/contracts/draft';
import { GeneratorRoute } from '../../../frontend/src/features/generator/components/GeneratorRoute';
import type { Photo } from '../../../frontend/src/features/generator/hooks/use-photo-uploads';
import {
  accountDraft,
  AccountDraftSync,
  fromAccountDraft,
  toAccountDraft,
  type AccountDraftApi,
} from '../../../frontend/src/features/generator/utils/account-draft';
import { loadDraft, saveDraft } from '../../../frontend/src/features/generator/utils/wizard-draft';
import { answer, apiError, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, startedOf } from './fixtures';
import { renderAt } from './render';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * The wizard's draft kept with the account (issue 35 item 4): a tab without a draft of its own opens the wizard on
 * the account's, changes are kept with the account a moment after the last one, and a generation forgets it.
 */

const PREVIEW = 'data:image/jpeg;base64,/9j/4AAQ';

const photo = (n: number, patch: Partial<Photo> = {}): Photo => ({
  id: `photo-${n}`,
  name: `p${n}.jpg`,
  previewUrl: `blob:http://localhost/${n}`,
  status: 'uploaded',
  progress: 100,
  key: `uploads/u/B/${n}`,
  error: null,
  previewDataUrl: PREVIEW,
  ...patch,
});

const accountDraftOf = (patch: Partial<AccountDraft> = {}): AccountDraft => ({
  step: 2,
  style: 'creative',
  background: null,
  photos: [
    { key: 'uploads/u/B/0', name: 'a.jpg', preview: PREVIEW },
    { key: 'uploads/u/B/1', name: 'b.jpg', preview: null },
  ],
  ...patch,
});

/** A sync over a recording API: `saved` and `removed` list what reached the account. */
function recordingSync(stored: AccountDraft | null | Error = null) {
  const saved: AccountDraft[] = [];
  let removed = 0;
  const api: AccountDraftApi = {
    get: async () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
    save: async (draft) => void saved.push(draft),
    remove: async () => void (removed += 1),
  };
  return { sync: new AccountDraftSync(api, 1000), saved, removed: () => removed };
}

beforeEach(() => sessionStorage.clear());

describe('the draft as the account keeps it', () => {
  it('carries stored photos only, with a JPEG data: preview or none, names cut to 255 characters', () => {
    const draft = toAccountDraft({
      step: 3,
      style: 'professional',
      background: 'office',
      photos: [
        photo(0),
        photo(1, { previewDataUrl: null }),
        photo(2, { previewDataUrl: 'data:image/png;base64,AAAA' }),
        photo(3, { previewDataUrl: `data:image/jpeg;base64,${'A'.repeat(40_000)}` }),
        photo(4, { name: 'n'.repeat(300) }),
        photo(5, { status: 'uploading', key: null }),
      ],
    });
    expect(draft.photos.map((p) => p.preview)).toEqual([PREVIEW, null, null, null, PREVIEW]);
    expect(draft.photos.map((p) => p.key)).toHaveLength(5);
    expect(draft.photos[4]!.name).toHaveLength(255);
  });

  it('comes back as stored photos the wizard shows, previews kept', () => {
    const wizard = fromAccountDraft(accountDraftOf());
    expect(wizard.photos.map((p) => [p.key, p.status, p.previewUrl])).toEqual([
      ['uploads/u/B/0', 'uploaded', PREVIEW],
      ['uploads/u/B/1', 'uploaded', null],
    ]);
    expect(toAccountDraft(wizard)).toEqual(accountDraftOf());
  });

  it('carries a chosen outfit both ways, and leaves own clothing out (what an absent outfit means)', () => {
    const dressed = fromAccountDraft({ ...accountDraftOf(), outfit: 'blazer' });
    expect(dressed.outfit).toBe('blazer');
    expect(toAccountDraft(dressed)).toEqual({ ...accountDraftOf(), outfit: 'blazer' });
    expect(toAccountDraft({ ...dressed, outfit: 'own-clothing' })).not.toHaveProperty('outfit');
  });
});

describe('keeping the draft in step with the account', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a burst of changes once, after the last one, and an unchanged draft never again', async () => {
    const { sync, saved } = recordingSync();
    await sync.resume();
    sync.keep({ step: 1, style: null, background: null, photos: [photo(0)] });
    sync.keep({ step: 2, style: null, background: null, photos: [photo(0)] });
    sync.keep({ step: 2, style: 'creative', background: null, photos: [photo(0)] });
    expect(saved).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([
      toAccountDraft({ step: 2, style: 'creative', background: null, photos: [photo(0)] }),
    ]);
    sync.keep({ step: 2, style: 'creative', background: null, photos: [photo(0)] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(1);
  });

  it('puts the account’s draft in the tab’s storage, and does not send it straight back', async () => {
    const { sync, saved } = recordingSync(accountDraftOf());
    expect(sync.openTabDraft()).toBe(false);
    await sync.resume();
    expect(sync.openTabDraft()).toBe(true);
    const resumed = loadDraft()!;
    expect(resumed.style).toBe('creative');
    sync.keep(resumed);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(0);
  });

  it('never erases a draft it could not read: the empty wizard shown meanwhile is not sent', async () => {
    const { sync, saved } = recordingSync(new Error('offline'));
    await sync.resume();
    expect(loadDraft()).toBeNull();
    sync.keep({ step: 1, style: null, background: null, photos: [] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(0);
    // A real change is kept (the last writer wins).
    sync.keep({ step: 1, style: null, background: null, photos: [photo(0)] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(1);
  });

  it('forgets the account’s draft and drops a change still waiting', async () => {
    const { sync, saved, removed } = recordingSync();
    await sync.resume();
    sync.keep({ step: 3, style: 'creative', background: 'office', photos: [photo(0)] });
    sync.forget();
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(0);
    expect(removed()).toBe(1);
  });

  it('sends a waiting change at once when the page is hidden (a phone may close it)', async () => {
    const { sync, saved } = recordingSync();
    await sync.resume();
    sync.keep({ step: 1, style: null, background: null, photos: [photo(0)] });
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(saved).toHaveLength(1);
  });

  it('sends again after a save that failed', async () => {
    const saved: AccountDraft[] = [];
    let fail = true;
    const sync = new AccountDraftSync(
      {
        get: async () => null,
        save: async (draft) => {
          if (fail) throw new Error('offline');
          saved.push(draft);
        },
        remove: async () => {},
      },
      1000,
    );
    await sync.resume();
    const draft = { step: 1 as const, style: null, background: null, photos: [photo(0)] };
    sync.keep(draft);
    await vi.advanceTimersByTimeAsync(1000);
    fail = false;
    sync.keep(draft);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toHaveLength(1);
  });
});

describe('the generator route and the account’s draft', () => {
  beforeEach(() => {
    signedIn();
    answer('POST /api/generations', startedOf());
    answer('GET /api/generations/{id}', ({ params }) => generationOf({ id: params.id, progress: 45 }));
  });

  const renderRoute = () =>
    renderAt('/generator', { element: <GeneratorRoute />, route: '/generator', history: ['/'] });

  it('opens the wizard on the account’s draft in a tab without one: its step, choices and photos', async () => {
    answer('GET /api/draft', { draft: accountDraftOf() });
    renderRoute();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Creative' }) as HTMLInputElement).checked).toBe(true);
    expect(loadDraft()?.photos.map((p) => p.key)).toEqual(['uploads/u/B/0', 'uploads/u/B/1']);
  });

  it('opens a tab’s own draft at once, without asking the account, and sends it only once it changes', async () => {
    saveDraft({ step: 2, style: 'professional', background: null, photos: [photo(0)] });
    renderRoute();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
    expect(requestsTo('GET /api/draft')).toHaveLength(0);
    // Opening does not overwrite what another device may have saved since.
    accountDraft.flush();
    expect(requestsTo('PUT /api/draft')).toHaveLength(0);
    fireEvent.click(screen.getByRole('radio', { name: 'Creative' }));
    accountDraft.flush();
    await waitFor(() => expect(requestsTo('PUT /api/draft')).toHaveLength(1));
    expect(requestsTo('PUT /api/draft')[0]!.body).toMatchObject({ step: 2, style: 'creative' });
  });

  it('opens an empty wizard when the draft cannot be read, and leaves the account’s draft alone', async () => {
    answer('GET /api/draft', apiError(500, 'INTERNAL_ERROR', 'Something went wrong.'));
    renderRoute();
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    accountDraft.flush();
    expect(requestsTo('PUT /api/draft')).toHaveLength(0);
  });

  it('keeps a change with the account, and forgets the draft once a generation starts from it', async () => {
    answer('GET /api/draft', { draft: accountDraftOf({ step: 3, style: 'professional' }) });
    renderRoute();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Office' }));
    accountDraft.flush();
    await waitFor(() => expect(requestsTo('PUT /api/draft')).toHaveLength(1));
    expect(requestsTo('PUT /api/draft')[0]!.body).toMatchObject({ step: 3, background: 'office' });

    const generate = await screen.findByRole('button', { name: /Generate Headshots/ });
    await waitFor(() => expect((generate as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(generate);
    await waitFor(() => expect(requestsTo('DELETE /api/draft')).toHaveLength(1));
    expect(requestsTo('POST /api/generations')).toHaveLength(1);
  });
});
