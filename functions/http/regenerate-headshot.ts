import type { GenerationStarted } from '../contracts';
import { regenerateHeadshot } from '../use-cases/regenerate-headshot';
import { callerOf, httpHandler, json } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `POST /api/headshots/{id}/regenerate` (jwt, owner only) → 202, the same answer as `POST /api/generations` with
 * `creditsReserved: 1`.
 *
 * "Regenerate (1 credit)": a one-slot generation with the style, background and reference photos of the headshot's
 * own generation, through the same workflow — 1 credit spent atomically with the new generation item, refunded if
 * the slot fails. Its headshot is an ordinary headshot of the gallery; `regeneratedFrom` on the generation names the
 * original so the SPA shows them side by side.
 *
 * Errors: 404 `NOT_FOUND` (unknown headshot, another user's, or its generation is gone), 409 `PHOTOS_EXPIRED` (the
 * reference photos are no longer stored: uploads expire after 7 days), 402 `INSUFFICIENT_CREDITS` ('Insufficient
 * credits! You need 1 credit but only have 0.'), 409 `ACCOUNT_DELETING`, 429 `QUOTA_EXCEEDED` past the hourly
 * regeneration quota (`QUOTA_REGENERATIONS_PER_HOUR`, default 30 attempts), while another generation of the caller is running or (`likeness-attempts`) when the day's provider calls of the likeness cap are
 * used up, 409 `PHOTOS_DONT_MATCH` when the photos' headshots kept failing the likeness check (a regeneration gets no
 * likeness retry beyond the cap: use-cases/likeness-cap.ts), 409 `MIXED_PEOPLE` when the photo check calls its photos
 * `mixed_people` (different people, none a majority: nothing spent), 502 `WORKFLOW_START_FAILED` (refunded).
 */
export const handler = httpHandler(async (event) => {
  const started = await regenerateHeadshot(callerOf(event), headshotIdOf(event));
  return json<GenerationStarted>(202, started, { location: `/api/generations/${started.id}` });
});
