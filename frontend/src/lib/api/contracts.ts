import * as z from 'zod';

/**
 * The response shapes the SPA checks every answer of the HTTP API against (docs/architecture.md §3 "API"). Each
 * call in `lib/api/` and `features/<name>/api/` parses its answer with one of these, so a server that changed shape
 * fails loudly at the edge (an `INVALID_RESPONSE` {@link ApiError}) instead of deep inside a screen.
 */

/**
 * One headshot, as every route that returns headshots spells it: the gallery (`GET /api/headshots`,
 * `PATCH /api/headshots/{id}`) and a generation's results (`GET /api/generations/{id}`, which adds `slot`,
 * `downloadUrl` and `fileName`). URLs are presigned and expire after 15 minutes.
 */
export const headshotSchema = z.object({
  id: z.string().min(1),
  /** The generation that made it (gallery answers). */
  generationId: z.string().optional(),
  /** 0-5: its place in the generation's grid (generation answers). */
  slot: z.number().int().optional(),
  /** professional | business-casual | creative */
  style: z.string(),
  /** office | studio | outdoor | gradient */
  background: z.string(),
  isFavorite: z.boolean(),
  /** Likeness to the customer's photos, 0-100; null for headshots made before it was measured. */
  likeness: z.number().nullish(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** WebP, ≤ 384 px. */
  thumbnailUrl: z.string(),
  /** 1024×1024 JPEG, inline. */
  imageUrl: z.string(),
  /** The same JPEG as an attachment named {@link fileName} (generation answers). */
  downloadUrl: z.string().optional(),
  fileName: z.string().optional(),
});
/** One headshot: the single client-side shape, wherever it is shown (results grid, gallery, viewer). */
export type Headshot = z.infer<typeof headshotSchema>;

/** Where a generation is; the last three never change again. */
export const generationStatusSchema = z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']);
export type GenerationStatus = z.infer<typeof generationStatusSchema>;

/** `GET /api/generations/{id}`. */
export const generationSchema = z.object({
  id: z.string().min(1),
  status: generationStatusSchema,
  stage: z.string(),
  /** 0-100. */
  progress: z.number(),
  style: z.string(),
  background: z.string(),
  /** Why it failed; `message` is written for people. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /**
   * The place in the image provider's line, shared by every customer: `position` 1 = next up (position − 1
   * generations ahead), 0 = running; `etaSeconds` until it starts. `null` before it reaches the line and once it ended.
   */
  queue: z.object({ position: z.number().int(), etaSeconds: z.number() }).nullish(),
  headshotsExpected: z.number().int(),
  /** Saved so far, in slot order. */
  headshots: z.array(headshotSchema),
  creditsReserved: z.number().int(),
  creditsRefunded: z.number().int(),
  /** ISO 8601: when the earliest presigned URL of the answer expires. */
  urlsExpireAt: z.string(),
});
export type Generation = z.infer<typeof generationSchema>;

/** `GET /api/me`: the signed-in user's record. */
export const meSchema = z.object({
  /** Cognito `sub`. */
  id: z.string().min(1),
  email: z.string(),
  /** The part of the e-mail before '@'. */
  displayName: z.string(),
  /** Current balance, in credits (one generation costs 6). */
  credits: z.number().int(),
  /**
   * `already-claimed` when an earlier account with the same e-mail address already had the free credits, so this
   * account started with 0 (free credits are once per person).
   */
  signupBonus: z.enum(['granted', 'already-claimed']).optional(),
  /** "E-mail me when my headshots are ready" (on unless turned off on the dashboard). */
  emailWhenReady: z.boolean().optional(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

/** `GET /api/headshots/{id}/download`: a fresh presigned attachment URL (valid 15 minutes). */
export const headshotDownloadSchema = z.object({
  url: z.string().min(1),
  fileName: z.string(),
  expiresAt: z.string().optional(),
});
export type HeadshotDownload = z.infer<typeof headshotDownloadSchema>;

/** The whole gallery's totals (independent of the filter). */
export const galleryStatsSchema = z.object({ total: z.number().int(), favorites: z.number().int() });
export type GalleryStats = z.infer<typeof galleryStatsSchema>;

/** One page of `GET /api/headshots`. */
export const galleryPageSchema = z.object({
  items: z.array(headshotSchema),
  nextCursor: z.string().nullable(),
  stats: galleryStatsSchema,
});
export type GalleryPage = z.infer<typeof galleryPageSchema>;
