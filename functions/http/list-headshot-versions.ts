import type { HeadshotVersions } from '../contracts/edits';
import { listHeadshotVersions } from '../use-cases/list-headshot-versions';
import { callerOf, httpHandler, json } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `GET /api/headshots/{id}/versions` (jwt, owner only) → 200 `{ versions: HeadshotVersion[] }`
 * (functions/contracts/edits.ts): the headshot's versions, the results of its edits, oldest first, each with its
 * presigned image URLs and every file it downloads as (issue 36, docs/product-spec.md §2 "Edit a headshot").
 *
 * Errors: 404 `NOT_FOUND` 'Headshot not found.' for an unknown id and another user's headshot alike.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<HeadshotVersions>(200, await listHeadshotVersions(sub, headshotIdOf(event)));
});
