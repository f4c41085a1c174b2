import { updateMeBody, type UpdateMeBody } from '../contracts/account';
import { updateMe } from '../use-cases/update-me';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `PATCH /api/me` (jwt) `{ emailWhenReady: boolean }` → 200 `{ emailWhenReady }`: the dashboard's "E-mail me when my
 * headshots are ready" toggle, stored on the caller's user item (docs/architecture.md §8).
 *
 * Errors: 400 `VALIDATION_ERROR` (anything but that one boolean), 404 `NOT_FOUND` (no user item yet: call
 * `GET /api/me` first).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const body = parseBody(event, updateMeBody);
  return json<UpdateMeBody>(200, await updateMe(sub, body));
});
