import type { GenerationStarted } from '../contracts';
import { editHeadshotBody } from '../contracts/edits';
import { editHeadshot } from '../use-cases/edit-headshot';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `POST /api/headshots/{id}/edits` (jwt, owner only) body `{ edit, versionId? }` (functions/contracts/edits.ts) →
 * 202, the same answer as `POST /api/generations` with `creditsReserved: 1`.
 *
 * An edit of a finished headshot (issue 36, docs/product-spec.md §2 "Edit a headshot"): a one-slot generation that
 * sends the provider the headshot itself (the original, or the version `versionId` names) with the edit's prompt,
 * through the same workflow as "Regenerate (1 credit)" — 1 credit spent atomically with the new generation item,
 * refunded if the edit is not delivered. Its result is a new version of the headshot, never a new gallery headshot.
 *
 * Errors: 400 `VALIDATION_ERROR` (an unknown kind or option, a colour not `#rrggbb`), 404 `NOT_FOUND` 'Headshot not
 * found.' (unknown headshot or version, another user's, or its generation is gone), 409 `PHOTOS_EXPIRED` (the
 * reference photos the edit is checked against are no longer stored), 402 `INSUFFICIENT_CREDITS`, 409
 * `ACCOUNT_DELETING`, 429 `QUOTA_EXCEEDED` past the hourly edit quota (`QUOTA_EDITS_PER_HOUR`, default 30 attempts),
 * while another generation of the caller is running, or when the likeness cap's calls are used up, 409
 * `PHOTOS_DONT_MATCH`, 409 `MIXED_PEOPLE`, 502 `WORKFLOW_START_FAILED` (refunded) — as a regeneration.
 */
export const handler = httpHandler(async (event) => {
  const { edit, versionId } = parseBody(event, editHeadshotBody);
  const started = await editHeadshot(callerOf(event), headshotIdOf(event), {
    request: edit,
    ...(versionId === undefined ? {} : { versionId }),
  });
  return json<GenerationStarted>(202, started, { location: `/api/generations/${started.id}` });
});
