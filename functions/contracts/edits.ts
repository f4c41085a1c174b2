import * as z from 'zod/mini';
import { HEX_COLOUR, REFRAMINGS, RETOUCH_STRENGTHS } from '../domain/edits';
import { backgroundSchema, outfitSchema, variantLinkSchema } from './headshot';

/**
 * Edits of a finished headshot and their versions (issue 36, docs/architecture.md §3): `POST
 * /api/headshots/{id}/edits` takes {@link editHeadshotBody} and answers 202 with a generation started (as a
 * regeneration does); `GET /api/headshots/{id}/versions` answers {@link headshotVersionsSchema}.
 */

/** A preset background by name, as an edit and a team's look take it. */
export const presetBackgroundSchema = z.object({ type: z.literal('preset'), background: backgroundSchema });

/** A custom colour (`#rrggbb`, lower-cased), as an edit and a team's look take it. */
export const colourBackgroundSchema = z.object({
  type: z.literal('colour'),
  colour: z
    .string()
    .check(z.regex(HEX_COLOUR, 'Pick a colour as # and six hex digits, e.g. #1f6feb.'), z.toLowerCase()),
});

/** The background an edit puts behind the person (domain/edits.ts `EditBackground`). */
export const editBackgroundSchema = z.discriminatedUnion('type', [
  presetBackgroundSchema,
  colourBackgroundSchema,
  z.object({ type: z.literal('transparent') }),
]);

/** What to change (domain/edits.ts `EditRequest`). */
export const editRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('background'), background: editBackgroundSchema }),
  z.object({ kind: z.literal('outfit'), outfit: outfitSchema }),
  z.object({ kind: z.literal('retouch'), strength: z.enum(RETOUCH_STRENGTHS) }),
  z.object({ kind: z.literal('reframe'), framing: z.enum(REFRAMINGS) }),
  z.object({ kind: z.literal('upscale') }),
]);
export type EditRequestBody = z.infer<typeof editRequestSchema>;

/**
 * The edit a one-slot generation makes, as `GET /api/generations/{id}` and `GET /api/me` show it: what changes, and
 * the headshot (the gallery item) whose new version it makes. `null` on a generation that is not an edit.
 */
export const generationEditSchema = z.intersection(editRequestSchema, z.object({ headshotId: z.string() }));
export type GenerationEdit = z.infer<typeof generationEditSchema>;

/**
 * `POST /api/headshots/{id}/edits` body: the edit, and which version of the headshot to edit (absent: the original).
 */
export const editHeadshotBody = z.object({
  edit: editRequestSchema,
  versionId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type EditHeadshotBody = z.input<typeof editHeadshotBody>;

/**
 * One version of a headshot: an edit's result (the original headshot is the gallery item itself). URLs are presigned
 * GETs, as a headshot's; `variants` are its files in every format (square, portrait, original; a transparent edit's
 * files are PNGs with an alpha channel).
 */
export const headshotVersionSchema = z.object({
  /** ULID; later versions sort last. */
  id: z.string(),
  /** The headshot (gallery item) it is a version of. */
  headshotId: z.string(),
  /** The version it was made from; null when made from the original. */
  sourceVersionId: z.nullable(z.string()),
  /** The generation (one slot) that made it. */
  generationId: z.string(),
  edit: editRequestSchema,
  /** 0-100: how much it looks like the customer (it was delivered because it passed the likeness check). */
  likeness: z.nullable(z.number().check(z.gte(0), z.lte(100))),
  /** True when the offline provider made it: an honest, marked preview of the edit, not an AI edit. */
  preview: z.boolean(),
  /** True when it has no background (its files are PNGs with an alpha channel). */
  transparent: z.boolean(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  thumbnailUrl: z.string(),
  imageUrl: z.string(),
  variants: z.array(variantLinkSchema),
});
export type HeadshotVersion = z.infer<typeof headshotVersionSchema>;

/** `GET /api/headshots/{id}/versions` 200: the headshot's versions, oldest first (the original is not among them). */
export const headshotVersionsSchema = z.object({ versions: z.array(headshotVersionSchema) });
export type HeadshotVersions = z.infer<typeof headshotVersionsSchema>;
