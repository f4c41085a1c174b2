import * as z from 'zod/mini';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '../domain/photos';
import { PHOTO_CHECK_CODES } from '../domain/photo-checks';
import { RESOLUTIONS } from '../domain/headshot-variants';

/** The `duplicate` reason's words for a photo number, for clients that number the photos their own way. */
export { duplicateMessage } from '../domain/photo-checks';
import { backgroundSchema, headshotSchema, outfitSchema, styleSchema } from './headshot';
import { generationEditSchema, headshotVersionSchema } from './edits';
import { teamGenerationFields } from './teams';

/**
 * The generator's routes (docs/architecture.md §3-§4): presigned uploads, photo checks, starting a generation (or a
 * one-slot regeneration) and polling it.
 */

/** One file the browser wants to upload: an `image/*` type and its size in bytes (1 B to 10 MiB). */
const uploadFileSchema = z.object({
  /** Must start with `image/` (docs/product-spec.md §5), e.g. `image/jpeg`, `image/heic`. */
  contentType: z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.regex(
        /^image\/[a-z0-9][a-z0-9.+-]*$/,
        'Only image files can be uploaded (the type must start with image/).',
      ),
    ),
  /** Bytes, 1 to 10 MiB. */
  size: z
    .number()
    .check(
      z.int('The size must be a whole number of bytes.'),
      z.gte(1, 'The file is empty.'),
      z.lte(MAX_UPLOAD_BYTES, 'Each photo must be 10 MB or smaller.'),
    ),
});

/** `POST /api/uploads` body: 1-10 files. */
export const createUploadsBody = z.object({
  files: z
    .array(uploadFileSchema)
    .check(
      z.minLength(1, 'Choose at least one photo.'),
      z.maxLength(MAX_UPLOAD_FILES, `Maximum ${MAX_UPLOAD_FILES} files allowed.`),
    ),
});
export type CreateUploadsBody = z.input<typeof createUploadsBody>;

/**
 * `POST /api/uploads` 200: one presigned POST per file, in order. Post `multipart/form-data` to `url` with every
 * entry of `fields` first and the file last under `file`; `expiresAt` (ISO 8601) is when the policies stop working.
 */
export const uploadsSchema = z.object({
  batchId: z.string(),
  uploads: z.array(z.object({ key: z.string(), url: z.string(), fields: z.record(z.string(), z.string()) })),
  expiresAt: z.string(),
});
export type Uploads = z.infer<typeof uploadsSchema>;

/** A list of distinct upload keys from `POST /api/uploads`, in the wizard's order. */
const uploadKeys = (min: string, distinct: string) =>
  z.array(z.string().check(z.minLength(1), z.maxLength(512))).check(
    z.minLength(1, min),
    z.maxLength(MAX_UPLOAD_FILES, `Maximum ${MAX_UPLOAD_FILES} photos allowed.`),
    z.refine((keys) => new Set(keys).size === keys.length, distinct),
  );

/** `POST /api/photo-checks` body: 1-10 distinct upload keys. */
export const photoChecksBody = z.object({
  keys: uploadKeys('Send at least one photo.', 'Each photo may be checked only once per request.'),
});
export type PhotoChecksBody = z.infer<typeof photoChecksBody>;

/** `POST /api/photo-checks` 200: one check per key in the order given, and the set's quality (0-100). */
export const photoChecksSchema = z.object({
  checks: z.array(
    z.object({
      key: z.string(),
      verdict: z.enum(['good', 'warning', 'rejected']),
      /** 0-100: how good a reference the photo is (0 when rejected). */
      score: z.number(),
      reasons: z.array(z.object({ code: z.enum(PHOTO_CHECK_CODES), message: z.string() })),
      /**
       * With the reason `duplicate`: the key of the photo (in this request) this one is the same picture as; the
       * message numbers it by its place in the request, which the SPA renumbers by its own tiles.
       */
      duplicateOf: z.optional(z.string()),
    }),
  ),
  quality: z.number(),
});
export type PhotoChecks = z.infer<typeof photoChecksSchema>;
export type PhotoCheckResult = PhotoChecks['checks'][number];

/**
 * `POST /api/generations` body. A team generation (issue 37, docs/teams.md "Money") adds `teamId` and, for a custom
 * backdrop colour of the team's look, `backgroundColour` with `background: 'studio'` (contracts/teams.ts
 * `teamGenerationFields`); it is made at standard resolution, and a colour is only for a team's generation.
 */
export const createGenerationBody = z
  .object({
    style: styleSchema,
    background: backgroundSchema,
    /** Keys from `POST /api/uploads`, in the user's order (the first 3 usable become the references). */
    referenceKeys: uploadKeys('Upload at least one photo.', 'Each photo may be used only once.'),
    /**
     * `high`: the high-resolution option (docs/product-spec.md §2 step 3), 2 credits per headshot instead of 1, only
     * while `GET /api/me` says `highResolution: true`; default `standard`.
     */
    resolution: z._default(z.enum(RESOLUTIONS), 'standard'),
    /**
     * What the customer wears in every headshot (docs/product-spec.md §2 step 2 "Outfit", domain/outfits.ts);
     * absent: `own-clothing`, the clothing of the reference photos.
     */
    outfit: z.optional(outfitSchema),
    ...teamGenerationFields,
  })
  .check(
    z.refine((b) => b.backgroundColour === undefined || b.teamId !== undefined, {
      message: "A custom backdrop colour is part of a team's look: send it with the team's id.",
      path: ['backgroundColour'],
    }),
    z.refine((b) => b.teamId === undefined || b.resolution === 'standard', {
      message: 'Team headshots are made at standard resolution.',
      path: ['resolution'],
    }),
  );
export type CreateGenerationBody = z.infer<typeof createGenerationBody>;

/** Where a generation is; `succeeded`, `partial` and `failed` are final (stop polling). */
export const generationStatusSchema = z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']);
export type GenerationStatus = z.infer<typeof generationStatusSchema>;
/** What the workflow is doing: queued → preparing → generating → done, or failed from any stage. */
export const generationStageSchema = z.enum(['queued', 'preparing', 'generating', 'done', 'failed']);

/**
 * `POST /api/generations` and `POST /api/headshots/{id}/regenerate` 202 (with `Location: /api/generations/{id}`):
 * the credits reserved (6, or 1 for a regeneration) and the balance after them.
 */
export const generationStartedSchema = z.object({
  id: z.string(),
  status: z.literal('queued'),
  stage: z.literal('queued'),
  progress: z.number(),
  style: styleSchema,
  background: backgroundSchema,
  creditsReserved: z.number().check(z.int()),
  credits: z.number().check(z.int()),
  createdAt: z.string(),
});
export type GenerationStarted = z.infer<typeof generationStartedSchema>;

/** `GET /api/generations/{id}` 200: the wizard's progress poll (see the handler's contract for each field). */
export const generationSchema = z.object({
  id: z.string(),
  status: generationStatusSchema,
  stage: generationStageSchema,
  /** 0-100. */
  progress: z.number(),
  style: styleSchema,
  background: backgroundSchema,
  /** Why it failed (or is partial); `message` is for people. */
  error: z.nullable(
    z.object({
      code: z.enum([
        'NO_USABLE_PHOTOS',
        'PROVIDER_FAILED',
        'TIMED_OUT',
        'START_FAILED',
        'GENERATION_FAILED',
        /** Its headshots kept failing the likeness check: stopped, the rest refunded; `message` asks for other photos. */
        'LIKENESS_MISMATCH',
        /** The day's provider calls (the likeness cap) ran out: stopped, the rest refunded. */
        'LIKENESS_LIMIT',
        /** The provider kept refusing its calls: stopped, the rest refunded; `message` asks for other photos. */
        'PHOTOS_REFUSED',
      ]),
      message: z.string(),
    }),
  ),
  /** Place in the provider's line (1 = next up, 0 = running), or null when not in line. */
  queue: z.nullable(z.object({ position: z.number().check(z.int()), etaSeconds: z.number() })),
  /** 6, or 1 for a regeneration. */
  headshotsExpected: z.number().check(z.int()),
  /** The headshot a one-slot generation regenerates. */
  regeneratedFrom: z.nullable(z.string()),
  /**
   * The edit a one-slot generation makes (issue 36): its headshot is saved as a new version of `edit.headshotId`,
   * not as a gallery headshot. Null otherwise; absent from older answers: read it as null.
   */
  edit: z.optional(z.nullable(generationEditSchema)),
  /** In slot order, filled in as each one is saved. */
  headshots: z.array(headshotSchema),
  /**
   * An edit's result (issue 36): the version its slot saved, once saved (an edit saves a version of the headshot,
   * never a gallery headshot, so `headshots` stays empty). Empty for other generations; absent from older answers:
   * read it as empty.
   */
  versions: z.optional(z.array(headshotVersionSchema)),
  /**
   * While an edit's slot is unfinished, the latest partial image the model streamed (issue 36): a presigned URL (as
   * the headshots', until `urlsExpireAt`) and OpenAI's 0-based `partial_image_index`. A preview, never a result: it
   * has not passed the likeness check. Empty otherwise; absent from older answers: read it as empty.
   */
  partialPreviews: z.optional(
    z.array(z.object({ slot: z.number().check(z.int()), url: z.string(), index: z.number().check(z.int()) })),
  ),
  creditsReserved: z.number().check(z.int()),
  creditsRefunded: z.number().check(z.int()),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.nullable(z.string()),
  /** When the headshots' URLs stop working (ISO 8601). */
  urlsExpireAt: z.string(),
});
export type Generation = z.infer<typeof generationSchema>;
