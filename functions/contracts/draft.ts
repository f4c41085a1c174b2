import * as z from 'zod/mini';
import { MAX_UPLOAD_FILES } from '../domain/photos';
import { backgroundSchema, outfitSchema, styleSchema } from './headshot';

/**
 * The wizard's draft kept with the account (docs/architecture.md §2 "wizard draft", §3 `/draft`): the photos the
 * customer uploaded, the style, the outfit, the background and the step, so a closed browser or another device resumes the
 * generator where it was left (issue 35, item 4).
 */

/**
 * The longest preview a draft photo may carry, in characters of its `data:` URL. DynamoDB refuses an item over
 * 400 KB (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items), and a
 * draft holds up to 10 photos in one item: 10 × 32,000 characters leaves ~80 KB for the keys, names and attribute
 * names. The SPA sends `null` for a bigger preview (the thumbnail then shows a placeholder).
 */
export const DRAFT_PREVIEW_MAX_CHARS = 32_000;

/** The longest file name a draft photo keeps, in characters (a file name is at most 255 on common file systems). */
export const DRAFT_PHOTO_NAME_MAX_CHARS = 255;

/** One uploaded photo of the draft: its upload key (the caller's own), its file name and a small preview. */
export const draftPhotoSchema = z.object({
  /** `uploads/<sub>/<batchId>/<n>`: the server refuses any other (400 `INVALID_REFERENCE`). */
  key: z.string().check(z.minLength(1), z.maxLength(512)),
  name: z.string().check(z.maxLength(DRAFT_PHOTO_NAME_MAX_CHARS)),
  /** A small JPEG as a base64 `data:` URL (the wizard's thumbnail), or null. */
  preview: z.nullable(
    z
      .string()
      .check(z.maxLength(DRAFT_PREVIEW_MAX_CHARS), z.regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/)),
  ),
});
export type DraftPhoto = z.infer<typeof draftPhotoSchema>;

/** `PUT /api/draft` body, and the draft `GET /api/draft` answers: the wizard's step 1-3, choices and photos. */
export const wizardDraftSchema = z.object({
  step: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  style: z.nullable(styleSchema),
  background: z.nullable(backgroundSchema),
  /** The outfit chosen on step 2 (issue 36); absent in drafts saved before outfits, read as `own-clothing`. */
  outfit: z.optional(outfitSchema),
  photos: z.array(draftPhotoSchema).check(
    z.maxLength(MAX_UPLOAD_FILES, `Maximum ${MAX_UPLOAD_FILES} photos allowed.`),
    z.refine(
      (photos) => new Set(photos.map((p) => p.key)).size === photos.length,
      'Each photo may appear only once.',
    ),
  ),
});
export type WizardDraft = z.infer<typeof wizardDraftSchema>;

/**
 * `GET /api/draft` 200: the caller's draft, or null when there is none (never saved, discarded, generated from, or
 * expired). Photos whose upload is gone (expired or deleted) are left out.
 */
export const wizardDraftAnswerSchema = z.object({ draft: z.nullable(wizardDraftSchema) });
export type WizardDraftAnswer = z.infer<typeof wizardDraftAnswerSchema>;
