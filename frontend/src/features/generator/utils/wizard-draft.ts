import * as z from 'zod';
import { OUTFIT_CHOICE, type BackgroundId, type OutfitId, type StyleId } from './content';
import type { Photo } from '../hooks/use-photo-uploads';
import { WIZARD_DRAFT_KEY } from '../../../lib/checkout-return';

/**
 * The wizard's draft, kept for the tab in `sessionStorage` so leaving the wizard — to buy credits on Stripe's page,
 * to the dashboard, or by reloading — loses nothing: the stored photos (their upload keys, a small preview and any
 * check results on them), the style, the outfit, the background and the step. Cleared once a generation delivered its
 * headshots (a failed one returns to step 3 with the same choices, after a reload too), on 'Generate More
 * Headshots', and when the person confirms leaving with Back. Photos still uploading are not kept (their bytes live
 * only in this page).
 */
export interface WizardDraft {
  step: 1 | 2 | 3;
  style: StyleId | null;
  background: BackgroundId | null;
  /** Step 2's outfit; absent in drafts kept before outfits (the wizard then starts at own clothing). */
  outfit?: OutfitId;
  /** Stored photos only; `previewUrl` is a small `data:` URL that survives the page. */
  photos: Photo[];
}

/** The draft's `sessionStorage` key (shared with the payment pages: lib/checkout-return.ts). */
export const DRAFT_KEY = WIZARD_DRAFT_KEY;

/** `sessionStorage` holds ~5 MB: previews beyond this total are dropped (the photos themselves are kept). */
const MAX_DRAFT_CHARS = 1_500_000;

const photoSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    previewUrl: z.string().startsWith('data:image/').nullable().catch(null),
    status: z.literal('uploaded'),
    progress: z.number(),
    key: z.string().min(1),
    error: z.null(),
  })
  .loose();

const draftSchema = z.object({
  step: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  style: z.enum(['professional', 'business-casual', 'creative']).nullable(),
  background: z.enum(['office', 'studio', 'outdoor', 'gradient']).nullable(),
  outfit: z.enum(OUTFIT_CHOICE.options.map((o) => o.id)).optional(),
  photos: z.array(photoSchema).max(10),
});

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storage = (): DraftStorage | undefined =>
  typeof sessionStorage === 'undefined' ? undefined : sessionStorage;

/** The saved draft, or `null` when there is none or it does not read back as one. */
export function loadDraft(store: DraftStorage | undefined = storage()): WizardDraft | null {
  try {
    const raw = store?.getItem(DRAFT_KEY);
    if (!raw) return null;
    const parsed = draftSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as WizardDraft) : null;
  } catch {
    return null;
  }
}

/**
 * Saves the draft: only stored photos, with `data:` previews (object URLs die with the page). An empty draft (step
 * 1, nothing chosen) is removed instead. Never throws (storage full or blocked: the draft is simply not kept).
 */
export function saveDraft(draft: WizardDraft, store: DraftStorage | undefined = storage()): void {
  try {
    const photos = draft.photos
      .filter((p) => p.status === 'uploaded' && p.key)
      .map((p) => {
        const preview = p.previewDataUrl ?? (p.previewUrl?.startsWith('data:image/') ? p.previewUrl : null);
        return { ...p, previewUrl: preview, previewDataUrl: preview };
      });
    if (photos.length === 0 && draft.step === 1 && !draft.style && !draft.background) {
      store?.removeItem(DRAFT_KEY);
      return;
    }
    let text = JSON.stringify({ ...draft, photos });
    if (text.length > MAX_DRAFT_CHARS) {
      const bare = photos.map((p) => ({ ...p, previewUrl: null, previewDataUrl: null }));
      text = JSON.stringify({ ...draft, photos: bare });
    }
    store?.setItem(DRAFT_KEY, text);
  } catch {
    // Not kept: see the docstring.
  }
}

/** Forgets the draft. */
export function clearDraft(store: DraftStorage | undefined = storage()): void {
  try {
    store?.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to forget.
  }
}

/**
 * A small JPEG `data:` URL of an image (longest side `size` px), for a preview that survives leaving the page;
 * `null` where the browser cannot draw it (the thumbnail then shows a placeholder after a reload).
 */
export async function previewDataUrl(blob: Blob, size = 192): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    const scale = Math.min(1, size / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.75);
  } catch {
    return null;
  }
}
