import * as z from 'zod';
import type { HeadshotRecord } from '../adapters/generations';
import { headshotUrls } from '../adapters/headshots';
import { isUlid } from '../domain/object-keys';
import { notFound } from './errors';
import type { HttpEvent, HttpResult } from './handler';

/**
 * What the gallery routes share: the `{id}` path parameter and the API view of one headshot.
 */

/** The path of `/api/headshots/{id}…`: `id` is a headshot's ULID. */
export const headshotPathSchema = z.object({
  id: z.string().refine(isUlid, 'not a headshot id'),
});

/** 404 `NOT_FOUND`: for a missing headshot and another user's alike (never says which). */
export const headshotNotFound = () => notFound('Headshot not found.');

/**
 * The headshot id of the path, parsed with {@link headshotPathSchema}.
 *
 * @throws {HttpError} 404 for an id that cannot name a headshot (it names none, so the answer is the same as for
 *   an unknown one)
 */
export function headshotIdOf(event: HttpEvent): string {
  const parsed = headshotPathSchema.safeParse(event.pathParameters ?? {});
  if (!parsed.success) throw headshotNotFound();
  return parsed.data.id;
}

/** One headshot as the dashboard shows it. URLs are presigned GETs, valid 15 minutes. */
export interface GalleryItem {
  /** ULID; newer headshots sort first. */
  id: string;
  generationId: string;
  /** professional | business-casual | creative */
  style: string;
  /** office | studio | outdoor | gradient */
  background: string;
  isFavorite: boolean;
  /** How much it looks like the customer, 0-100; null for headshots made before likeness was measured. */
  likeness: number | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** WebP, ≤ 384 px. */
  thumbnailUrl: string;
  /** 1024×1024 JPEG, inline. */
  imageUrl: string;
}

/** The API view of a headshot record (storage keys stay on the server). */
export async function toGalleryItem(headshot: HeadshotRecord): Promise<GalleryItem> {
  const urls = await headshotUrls(headshot);
  return {
    id: headshot.id,
    generationId: headshot.generationId,
    style: headshot.style,
    background: headshot.background,
    isFavorite: headshot.isFavorite === true,
    likeness: headshot.likeness ?? null,
    createdAt: headshot.createdAt,
    ...urls,
  };
}

/** 204 No Content (no body, not cached). */
export function noContent(): HttpResult {
  return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
}
