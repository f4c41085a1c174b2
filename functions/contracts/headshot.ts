import * as z from 'zod/mini';
import { BACKGROUNDS, STYLES } from '../domain/styles';
import { OUTFITS } from '../domain/outfits';
import { GALLERY_FILTERS, GALLERY_SORTS, MAX_CURSOR_LENGTH } from '../domain/gallery';
import { HEADSHOT_VARIANTS } from '../domain/headshot-variants';

/**
 * Headshots as the API shows them: the ONE view both the wizard (`GET /api/generations/{id}`) and the gallery
 * (`GET /api/headshots`, `PATCH /api/headshots/{id}`) answer with, and the gallery routes' requests
 * (docs/architecture.md §3).
 */

/** `style` of a generation and its headshots (docs/product-spec.md, styles). */
export const styleSchema = z.enum(STYLES);
/** `background` of a generation and its headshots (docs/product-spec.md, backgrounds). */
export const backgroundSchema = z.enum(BACKGROUNDS);
/** What the person wears in a generation and its headshots (domain/outfits.ts, docs/product-spec.md §2 step 2). */
export const outfitSchema = z.enum(OUTFITS);

/** A downloadable file of a headshot (docs/product-spec.md §2 "Downloads"): `square`, `portrait` or `original`. */
export const headshotVariantSchema = z.enum(HEADSHOT_VARIANTS);
export type HeadshotVariant = z.infer<typeof headshotVariantSchema>;

/** One stored file of a headshot: its pixels, the name it is saved under and a presigned inline GET. */
export const variantLinkSchema = z.object({
  variant: headshotVariantSchema,
  width: z.number().check(z.int(), z.gte(1)),
  height: z.number().check(z.int(), z.gte(1)),
  /** `headshot-<style>-<background>-<n>-<variant>.jpg|png`. */
  fileName: z.string(),
  url: z.string(),
});
export type VariantLink = z.infer<typeof variantLinkSchema>;

/**
 * One headshot. URLs are presigned GETs valid at least 15 minutes (the generation's `urlsExpireAt` says until when);
 * storage keys never leave the server.
 */
export const headshotSchema = z.object({
  /** ULID; newer headshots sort first. */
  id: z.string(),
  /** The generation that made it. */
  generationId: z.string(),
  /** 0-5: which slot of its generation made it (the wizard's grid order). */
  slot: z.number().check(z.int(), z.gte(0)),
  style: styleSchema,
  background: backgroundSchema,
  /**
   * What the person wears (issue 36): headshots made before outfits existed say `own-clothing`; answers from servers
   * before it have none, which clients read the same way.
   */
  outfit: z.optional(outfitSchema),
  isFavorite: z.boolean(),
  /** How much it looks like the customer, 0-100; null for headshots made before likeness was measured. */
  likeness: z.nullable(z.number().check(z.gte(0), z.lte(100))),
  /**
   * True when the offline `local` image provider made it (no OpenAI key was set): a composite of the customer's
   * own photos on a backdrop, marked "PREVIEW", not an AI headshot (docs/architecture.md §4, image providers).
   * Per headshot, so it stays true for headshots made offline after a key is set.
   */
  preview: z.boolean(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  /** WebP, ≤ 384 px. */
  thumbnailUrl: z.string(),
  /** 1024×1024 JPEG, inline. */
  imageUrl: z.string(),
  /** The same JPEG as an attachment named {@link fileName}. */
  downloadUrl: z.string(),
  /** `headshot-<style>-<background>-<n>-square.jpg`: the name the square is saved under (docs/product-spec.md §2). */
  fileName: z.string(),
  /**
   * Every file it can be downloaded as, in the viewer's order: the square always; the 4:5 portrait and the original
   * PNG for headshots made since issue 28 (older ones have only the square).
   */
  variants: z.array(variantLinkSchema),
  /**
   * How many versions (edits' results, issue 36) it has; the gallery shows '1 version' / 'N versions'. Answers from
   * servers before versions have none, which clients read as 0.
   */
  versionCount: z.optional(z.number().check(z.int(), z.gte(0))),
  /**
   * The team that paid its generation (issue 37, docs/teams.md "The screens"), as the server recorded it; absent: the
   * customer's own. A team headshot takes only the look-keeping edits and its regeneration is paid by the team.
   */
  teamId: z.optional(z.string()),
});
export type Headshot = z.infer<typeof headshotSchema>;

/** `GET /api/headshots` query: `filter` defaults to `all`, `sort` to `newest`; `cursor` is a page's `nextCursor`. */
export const galleryQuerySchema = z.object({
  filter: z._default(z.enum(GALLERY_FILTERS), 'all'),
  sort: z._default(z.enum(GALLERY_SORTS), 'newest'),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH))),
});
export type GalleryQuery = z.input<typeof galleryQuerySchema>;

/** Gallery totals (not the filter's): every headshot of the caller and the favorites among them. */
export const galleryStatsSchema = z.object({
  total: z.number().check(z.int(), z.gte(0)),
  favorites: z.number().check(z.int(), z.gte(0)),
});

/** `GET /api/headshots` 200: one page (30 at most) and the gallery's totals; `nextCursor` null on the last page. */
export const galleryPageSchema = z.object({
  items: z.array(headshotSchema),
  nextCursor: z.nullable(z.string()),
  stats: galleryStatsSchema,
});
export type GalleryPage = z.infer<typeof galleryPageSchema>;

/** `PATCH /api/headshots/{id}` body: only the favorite mark can change. 200: the updated {@link Headshot}. */
export const updateHeadshotBody = z.strictObject({ isFavorite: z.boolean() });
export type UpdateHeadshotBody = z.infer<typeof updateHeadshotBody>;

/** `GET /api/headshots/{id}/download` query: which file (default the square), of which version (default none). */
export const headshotDownloadQuerySchema = z.object({
  variant: z._default(headshotVariantSchema, 'square'),
  /** A version's id (issue 36): its file instead of the headshot's own. */
  version: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});

/** `GET /api/headshots/{id}/download` 200: a presigned attachment GET valid 15 minutes (`expiresAt`, ISO 8601). */
export const headshotDownloadSchema = z.object({
  url: z.string(),
  fileName: z.string(),
  expiresAt: z.string(),
});
export type HeadshotDownload = z.infer<typeof headshotDownloadSchema>;
