import type { DeletedData } from '../contracts';
import { deleteMyData } from '../use-cases/delete-my-data';
import { callerOf, httpHandler, json } from './handler';

/**
 * `DELETE /api/me/data` (jwt) → 200 `{ deleted: { headshots, generations, objects } }`.
 *
 * Deletes all of the caller's photos and what was made from them: every upload (and its normalized copy) under
 * `uploads/<sub>/`, every headshot image and thumbnail under `results/<sub>/`, and every headshot and generation
 * item, and the cached photo checks (they hold face descriptors). The account, the credit balance, the purchases
 * and the credit ledger stay (accounting). Counts are of items and S3 objects removed. Calling it again is harmless (`{ deleted: { 0, 0, 0 } }`).
 *
 * Errors: 409 `GENERATION_IN_PROGRESS` while a generation of the caller is still running (nothing is deleted: try
 * again when it has finished); 429 `QUOTA_EXCEEDED` with `Retry-After` past the caller's hourly quota
 * (`QUOTA_DATA_DELETIONS_PER_HOUR`, default 10: each run lists every object of the caller); 409
 * `ACCOUNT_DELETING` / 410 `ACCOUNT_DELETED` for a token still valid while or after its account is deleted.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<DeletedData>(200, { deleted: await deleteMyData(sub) });
});
