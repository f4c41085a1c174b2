import * as z from 'zod/mini';
import { isUlid } from '../domain/object-keys';
import { headshotNotFound } from '../use-cases/headshot-view';
import type { HttpEvent } from './handler';

/** What the headshot routes share at the edge: the `{id}` (and `{versionId}`) path parameters. */

/** The path of `/api/headshots/{id}…`: `id` is a headshot's ULID. */
export const headshotPathSchema = z.object({
  id: z.string().check(z.refine(isUlid, 'not a headshot id')),
});

/**
 * The headshot id of the path, parsed with {@link headshotPathSchema}.
 *
 * @throws {ItemNotFoundError} (404 `NOT_FOUND`) for an id that cannot name a headshot: it names none, so the answer
 *   is the same as for an unknown one
 */
export function headshotIdOf(event: HttpEvent): string {
  const parsed = headshotPathSchema.safeParse(event.pathParameters ?? {});
  if (!parsed.success) throw headshotNotFound();
  return parsed.data.id;
}

/** The path of `/api/headshots/{id}/versions/{versionId}`: both ULIDs. */
const versionPathSchema = z.object({
  id: z.string().check(z.refine(isUlid, 'not a headshot id')),
  versionId: z.string().check(z.refine(isUlid, 'not a version id')),
});

/**
 * The headshot and version ids of the path (issue 36).
 *
 * @throws {ItemNotFoundError} (404 `NOT_FOUND`) for ids that cannot name a version: the same answer as an unknown one
 */
export function versionIdsOf(event: HttpEvent): { headshotId: string; versionId: string } {
  const parsed = versionPathSchema.safeParse(event.pathParameters ?? {});
  if (!parsed.success) throw headshotNotFound();
  return { headshotId: parsed.data.id, versionId: parsed.data.versionId };
}

/**
 * The API view of a headshot record. It lives with the use cases (use-cases/headshot-view.ts); re-exported here for
 * the handlers that still build views themselves.
 */
export { toHeadshot } from '../use-cases/headshot-view';
