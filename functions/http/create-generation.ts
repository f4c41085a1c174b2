import { createGeneration } from '../use-cases/create-generation';
import { createGenerationBody, type GenerationStarted } from '../contracts/generation';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `POST /api/generations` (jwt) `{ style, background, referenceKeys }` → 202 `{ id, status: 'queued', stage,
 * progress: 5, style, background, creditsReserved: 6, credits, createdAt }` with `Location: /api/generations/{id}`.
 *
 * Checks every key is one of the caller's uploads and exists (nothing is spent otherwise), then in ONE ledger
 * transaction spends 6 credits (ref = the generation id) and creates the generation item, then starts the workflow
 * execution named after the generation id. If the start fails, the generation is compensated at once (all 6
 * credits back, status failed) and the answer is 502.
 *
 * Errors: 400 `VALIDATION_ERROR` (body), 400 `INVALID_REFERENCE` (a key that is not the caller's upload),
 * 400 `UPLOAD_NOT_FOUND` (not uploaded, or expired), 400 `INVALID_UPLOAD` (empty, over 10 MB, not `image/*`),
 * 402 `INSUFFICIENT_CREDITS` ('Insufficient credits! You need 6 credits but only have N.', details
 * `{ required, credits }`), 409 `ACCOUNT_DELETING` (the account's deletion has started), 429 `QUOTA_EXCEEDED` with
 * `Retry-After` while the caller's previous generation is still running (at most one in flight, checked inside the
 * spend transaction), 409 `PHOTOS_DONT_MATCH` (these photos' headshots kept failing the likeness check: other photos
 * are asked for; nothing spent), 409 `MIXED_PEOPLE` (the photo check calls the photos `mixed_people`: different
 * people, none a majority; 'Your photos seem to show different people, and we can't tell which one is you. Please
 * remove any photo that isn't you.'; nothing spent), 429 `QUOTA_EXCEEDED` (`details.quota: 'likeness-attempts'`, `Retry-After` to the end
 * of the UTC day) when the day's provider calls of the likeness cap are used up (use-cases/likeness-cap.ts),
 * 429 `QUOTA_EXCEEDED` (`details.quota: 'provider-line'`, `Retry-After`) when the provider line would not serve the
 * generation before its deadline (use-cases/provider-line-room.ts, decision 019: nothing spent),
 * 502 `WORKFLOW_START_FAILED` (credits refunded).
 *
 * With `teamId` (and, for the team look's custom colour, `backgroundColour` with `background: 'studio'`), a team
 * generation (docs/teams.md "Money"): the team's ledger pays 6 credits and the member's one generation is counted in
 * the same transaction; `credits` is the caller's own balance, unchanged. Its errors: 404 `TEAM_NOT_FOUND` (not a
 * current member), 400 `LOOK_LOCKED` (`details.field`: a choice outside the team's look), 409 `TEAM_ALLOWANCE_USED`
 * (their team generation is used), 402 `TEAM_NO_SEATS` (the team's credits are below 6), 400 `VALIDATION_ERROR` for a
 * colour without a team or a team generation at high resolution; nothing is spent on any of them.
 */
export const handler = httpHandler(async (event) => {
  const started = await createGeneration(callerOf(event), parseBody(event, createGenerationBody));
  return json<GenerationStarted>(202, started, { location: `/api/generations/${started.id}` });
});
