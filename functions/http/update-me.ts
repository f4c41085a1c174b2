import { updateMeBody, type UpdateMeBody } from '../contracts';
import { getUser } from '../adapters/ledger';
import { setEmailWhenReady } from '../adapters/preferences';
import { UserNotFoundError } from '../domain/credits';
import { notFound } from './errors';
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
  try {
    await setEmailWhenReady(sub, body.emailWhenReady);
  } catch (error) {
    if (error instanceof UserNotFoundError)
      throw notFound('Your account was not found. Please sign in again.');
    throw error;
  }
  const user = await getUser(sub);
  return json<UpdateMeBody>(200, { emailWhenReady: user?.emailWhenReady ?? body.emailWhenReady });
});
