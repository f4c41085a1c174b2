import { describe, expect, it } from 'vitest';
import {
  clearDraft,
  DRAFT_KEY,
  loadDraft,
  saveDraft,
} from '../../../frontend/src/features/generator/utils/wizard-draft';
import type { Photo } from '../../../frontend/src/features/generator/hooks/use-photo-uploads';

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const photo = (i: number, patch: Partial<Photo> = {}): Photo => ({
  id: `photo-${i}`,
  name: `p${i}.jpg`,
  previewUrl: `blob:http://localhost/${i}`,
  status: 'uploaded',
  progress: 100,
  key: `uploads/sub/batch/${i}`,
  error: null,
  previewDataUrl: `data:image/jpeg;base64,AAA${i}`,
  ...patch,
});

describe('wizard draft', () => {
  it('keeps stored photos with data previews, the choices and the step; drops photos still uploading', () => {
    const store = memory();
    saveDraft(
      {
        step: 3,
        style: 'creative',
        background: 'outdoor',
        photos: [
          photo(0),
          photo(1, { status: 'uploading', key: null }),
          photo(2, { checkScore: 0.9 } as Partial<Photo>),
        ],
      },
      store,
    );
    const draft = loadDraft(store);
    expect(draft).toMatchObject({ step: 3, style: 'creative', background: 'outdoor' });
    expect(draft?.photos.map((p) => [p.key, p.previewUrl])).toEqual([
      ['uploads/sub/batch/0', 'data:image/jpeg;base64,AAA0'],
      ['uploads/sub/batch/2', 'data:image/jpeg;base64,AAA2'],
    ]);
    // Whatever else a photo carries (e.g. its check results) comes back too.
    expect((draft?.photos[1] as unknown as { checkScore: number }).checkScore).toBe(0.9);
  });

  it('reads nothing from a tampered or foreign value, and clears', () => {
    const store = memory();
    store.setItem(DRAFT_KEY, JSON.stringify({ step: 4, style: 'x', background: null, photos: [] }));
    expect(loadDraft(store)).toBeNull();
    store.setItem(DRAFT_KEY, '{not json');
    expect(loadDraft(store)).toBeNull();
    saveDraft({ step: 2, style: 'professional', background: null, photos: [photo(0)] }, store);
    expect(loadDraft(store)?.step).toBe(2);
    clearDraft(store);
    expect(store.map.size).toBe(0);
  });
});
