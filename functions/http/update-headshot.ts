import { updateHeadshotBody, type Headshot } from '../contracts/headshot';
import { updateHeadshot } from '../use-cases/update-headshot';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `PATCH /api/headshots/{id}` (jwt, owner only) `{ isFavorite: boolean }` → 200 the updated headshot `{ id,
 * generationId, style, background, isFavorite, createdAt, thumbnailUrl, imageUrl }` (URLs valid 15 minutes).
 *
 * Setting the value it already has is fine (idempotent).
 *
 * Errors: 400 `VALIDATION_ERROR` (no body, `isFavorite` missing or not a boolean, any other field);
 * 404 `NOT_FOUND` for an unknown id and for another user's headshot alike (nothing changes).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = headshotIdOf(event);
  const { isFavorite } = parseBody(event, updateHeadshotBody);
  return json<Headshot>(200, await updateHeadshot(sub, id, { isFavorite }));
});
