import { describe, expect, it } from 'vitest';
import type { WizardDraft } from '../../../functions/contracts/draft';
import { UserNotFoundError } from '../../../functions/domain/credits';
import {
  AccountDeletedError,
  AccountDeletingError,
  ForeignUploadError,
} from '../../../functions/domain/errors';
import {
  discardWizardDraft,
  saveWizardDraft,
  viewWizardDraft,
  type WizardDraftPorts,
} from '../../../functions/use-cases/wizard-draft';
import { failing } from './fakes/failures';
import { FakeBuckets } from './fakes/storage';
import { FakeWizardDrafts } from './fakes/wizard-drafts';

const sub = 'user-1';
const BATCH = '01JD0000000000000000000000';
const keyOf = (n: number, owner = sub) => `uploads/${owner}/${BATCH}/${n}`;
const NOW = new Date('2026-01-01T12:00:00.000Z');
const daysLater = (days: number) => new Date(NOW.getTime() + days * 86_400_000);

/** A draft at step 3 with `count` photos of the caller, each with a preview. */
function draftOf(count: number, patch: Partial<WizardDraft> = {}): WizardDraft {
  return {
    step: 3,
    style: 'professional',
    background: 'office',
    photos: Array.from({ length: count }, (_, n) => ({
      key: keyOf(n),
      name: `photo-${n}.jpg`,
      preview: 'data:image/jpeg;base64,AAAA',
    })),
    ...patch,
  };
}

/** An active account whose uploads 0..`uploads`-1 are in the bucket. */
function setup(uploads = 3, overrides: Partial<WizardDraftPorts> = {}) {
  const drafts = new FakeWizardDrafts();
  const buckets = new FakeBuckets();
  drafts.accounts.set(sub, 'active');
  for (let n = 0; n < uploads; n++) buckets.put('uploads', keyOf(n), `photo ${n}`);
  const ports: WizardDraftPorts = {
    getWizardDraft: drafts.getWizardDraft,
    putWizardDraft: drafts.putWizardDraft,
    deleteWizardDraft: drafts.deleteWizardDraft,
    headObject: buckets.headObject,
    ...overrides,
  };
  return { drafts, buckets, ports };
}

describe('the wizard’s draft kept with the account', () => {
  it('gives back what was saved: step, style, background and photos with their names and previews', async () => {
    const { ports } = setup();
    await saveWizardDraft(sub, draftOf(3), NOW, ports);
    expect(await viewWizardDraft(sub, NOW, ports)).toEqual(draftOf(3));
  });

  it('answers null when nothing was saved, and for another account than the one that saved', async () => {
    const { drafts, ports } = setup();
    expect(await viewWizardDraft(sub, NOW, ports)).toBeNull();
    await saveWizardDraft(sub, draftOf(2), NOW, ports);
    drafts.accounts.set('user-2', 'active');
    expect(await viewWizardDraft('user-2', NOW, ports)).toBeNull();
  });

  it('replaces the draft on each save: the last one wins', async () => {
    const { ports } = setup();
    await saveWizardDraft(sub, draftOf(3), NOW, ports);
    await saveWizardDraft(sub, draftOf(1, { step: 2, background: null }), NOW, ports);
    expect(await viewWizardDraft(sub, NOW, ports)).toEqual(draftOf(1, { step: 2, background: null }));
  });

  it('leaves out, without an error, a photo whose upload is gone (expired or deleted)', async () => {
    const { buckets, ports } = setup(3);
    await saveWizardDraft(sub, draftOf(3), NOW, ports);
    buckets.objects.delete(`uploads/${keyOf(1)}`);
    const draft = await viewWizardDraft(sub, NOW, ports);
    expect(draft?.photos.map((p) => p.key)).toEqual([keyOf(0), keyOf(2)]);
    expect(draft?.style).toBe('professional');
  });

  it('expires 7 days after the last save (domain/retention.ts), and a save starts the 7 days again', async () => {
    const { ports } = setup();
    await saveWizardDraft(sub, draftOf(1), NOW, ports);
    expect(await viewWizardDraft(sub, daysLater(6.9), ports)).not.toBeNull();
    expect(await viewWizardDraft(sub, daysLater(7), ports)).toBeNull();
    await saveWizardDraft(sub, draftOf(1), daysLater(6), ports);
    expect(await viewWizardDraft(sub, daysLater(12), ports)).not.toBeNull();
  });

  it('refuses a key outside the caller’s upload prefix with ForeignUploadError naming the photo, saving nothing', async () => {
    const { drafts, ports } = setup();
    for (const key of [
      keyOf(0, 'user-2'),
      `uploads/${sub}/${BATCH}/normalized/0.jpg`,
      `uploads/${sub}/../user-2/${BATCH}/0`,
      `results/${sub}/${BATCH}/0.jpg`,
    ]) {
      const draft = draftOf(2);
      draft.photos[1]!.key = key;
      const refused = await saveWizardDraft(sub, draft, NOW, ports).catch((error: unknown) => error);
      expect(refused, key).toBeInstanceOf(ForeignUploadError);
      expect((refused as ForeignUploadError).index, key).toBe(1);
    }
    expect(drafts.drafts.size).toBe(0);
  });

  it('never looks up, nor returns, a stored key that is not the caller’s', async () => {
    const { drafts, buckets, ports } = setup();
    buckets.put('uploads', keyOf(0, 'user-2'), 'someone else');
    drafts.drafts.set(sub, {
      draft: { ...draftOf(1), photos: [{ key: keyOf(0, 'user-2'), name: 'x.jpg', preview: null }] },
      expiresAt: daysLater(7).getTime(),
    });
    expect((await viewWizardDraft(sub, NOW, ports))?.photos).toEqual([]);
    expect(buckets.heads).toEqual([]);
  });

  it('deletes the stored draft when an empty one is saved (step 1, nothing chosen)', async () => {
    const { drafts, ports } = setup();
    await saveWizardDraft(sub, draftOf(2), NOW, ports);
    await saveWizardDraft(sub, { step: 1, style: null, background: null, photos: [] }, NOW, ports);
    expect(drafts.drafts.has(sub)).toBe(false);
  });

  it('keeps a draft with choices but no photo yet', async () => {
    const { ports } = setup();
    await saveWizardDraft(sub, draftOf(0, { step: 1 }), NOW, ports);
    expect(await viewWizardDraft(sub, NOW, ports)).toEqual(draftOf(0, { step: 1 }));
  });

  it('discards the draft (a generation started from it), and discarding again is no error', async () => {
    const { ports } = setup();
    await saveWizardDraft(sub, draftOf(2), NOW, ports);
    await discardWizardDraft(sub, ports);
    expect(await viewWizardDraft(sub, NOW, ports)).toBeNull();
    await expect(discardWizardDraft(sub, ports)).resolves.toBeUndefined();
  });

  it.each([
    ['deleting', AccountDeletingError],
    ['deleted', AccountDeletedError],
  ] as const)('refuses to save for an account %s, saving nothing', async (state, error) => {
    const { drafts, ports } = setup();
    drafts.accounts.set(sub, state);
    await expect(saveWizardDraft(sub, draftOf(1), NOW, ports)).rejects.toBeInstanceOf(error);
    expect(drafts.drafts.size).toBe(0);
  });

  it('refuses to save before the user item exists (UserNotFoundError: GET /api/me creates it)', async () => {
    const { drafts, ports } = setup();
    drafts.accounts.delete(sub);
    await expect(saveWizardDraft(sub, draftOf(1), NOW, ports)).rejects.toBeInstanceOf(UserNotFoundError);
  });

  it('fails, rather than answering a draft without its photos, when the bucket cannot be asked', async () => {
    const { ports } = setup(3);
    await saveWizardDraft(sub, draftOf(3), NOW, ports);
    const down = { ...ports, headObject: failing(new Error('S3 down')) };
    await expect(viewWizardDraft(sub, NOW, down)).rejects.toThrow('S3 down');
  });

  it('passes a failing table on: reading, saving and discarding', async () => {
    const { ports } = setup();
    const down = failing(new Error('table down'));
    const broken = { ...ports, getWizardDraft: down, putWizardDraft: down, deleteWizardDraft: down };
    await expect(viewWizardDraft(sub, NOW, broken)).rejects.toThrow('table down');
    await expect(saveWizardDraft(sub, draftOf(1), NOW, broken)).rejects.toThrow('table down');
    await expect(discardWizardDraft(sub, broken)).rejects.toThrow('table down');
  });
});
