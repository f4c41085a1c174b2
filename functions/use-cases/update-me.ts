import { getUser } from '../adapters/ledger';
import { setEmailWhenReady } from '../adapters/preferences';
import type { UpdateMeBody } from '../contracts/account';

/** What changing the caller's preferences needs: the user item's preference write and its reading. */
export interface UpdateMePorts {
  setEmailWhenReady: typeof setEmailWhenReady;
  getUser: typeof getUser;
}

const adapters: UpdateMePorts = { setEmailWhenReady, getUser };

/**
 * The caller's preferences, `PATCH /api/me`: the dashboard's "E-mail me when my headshots are ready" toggle, stored
 * on the user item (docs/architecture.md §8).
 *
 * @returns the preference as stored afterwards
 * @throws {UserNotFoundError} when the caller has no user item yet (`GET /api/me` creates it)
 */
export async function updateMe(
  sub: string,
  changes: UpdateMeBody,
  ports: UpdateMePorts = adapters,
): Promise<UpdateMeBody> {
  await ports.setEmailWhenReady(sub, changes.emailWhenReady);
  const user = await ports.getUser(sub);
  return { emailWhenReady: user?.emailWhenReady ?? changes.emailWhenReady };
}
