import * as z from 'zod/mini';
import type { Headshot } from '../contracts';
import type { HeadshotRecord } from '../adapters/headshots/records';
import { downloadFileName, headshotUrls } from '../adapters/headshots/urls';
import { isUlid } from '../domain/object-keys';
import { LOCAL_PROVIDER } from '../domain/headshot-images';
import { notFound } from './errors';
import type { HttpEvent } from './handler';

/** What the headshot routes share: the `{id}` path parameter and the ONE API view of a headshot. */

/** The path of `/api/headshots/{id}…`: `id` is a headshot's ULID. */
export const headshotPathSchema = z.object({
  id: z.string().check(z.refine(isUlid, 'not a headshot id')),
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

/**
 * The API view of a headshot record ({@link Headshot}, functions/contracts): storage keys stay on the server, the
 * images are presigned GETs valid at least 15 minutes.
 */
export async function toHeadshot(headshot: HeadshotRecord): Promise<Headshot> {
  const urls = await headshotUrls(headshot);
  return {
    id: headshot.id,
    generationId: headshot.generationId,
    slot: headshot.slot,
    style: headshot.style,
    background: headshot.background,
    isFavorite: headshot.isFavorite === true,
    likeness: headshot.likeness ?? null,
    preview: headshot.provider === LOCAL_PROVIDER,
    createdAt: headshot.createdAt,
    ...urls,
    fileName: downloadFileName(headshot),
  };
}
