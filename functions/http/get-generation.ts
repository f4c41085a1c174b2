import type { Generation } from '../contracts/generation';
import { viewGeneration } from '../use-cases/get-generation';
import { callerOf, httpHandler, json } from './handler';
import { toHeadshot } from './headshot-view';

/**
 * `GET /api/generations/{id}` (jwt, owner only) → 200 `{ id, status, stage, progress, style, background, error, queue,
 * headshotsExpected: 6 (1 when regenerating), regeneratedFrom, headshots: Headshot[] (functions/contracts), partialPreviews: { slot, url, index }[] (a running edit's latest partial image per unfinished slot: a preview, not yet likeness-checked), creditsReserved, creditsRefunded, createdAt, updatedAt, completedAt, urlsExpireAt }`.
 *
 * `status`: queued | running | succeeded | partial | failed (the last three are final: stop polling).
 * `stage`: queued | preparing | generating | done | failed. `progress`: 0-100 (5 queued, 10-30 preparing, 45
 * generating, +8 per headshot saved, 100 done). `error`: `{ code, message }` or null; `message` is for people.
 * `headshots` fills in as each one is saved, in slot order. `queue`: `{ position, etaSeconds }` while the generation
 * waits for the image provider — position = its place in the one line all customers share (1 = next up, so
 * position − 1 generations are ahead of it), 0 once it is running; etaSeconds = the estimated wait until it starts —
 * or null (not in line yet, or ended).
 *
 * A generation that has not changed for a minute is reconciled with its execution first (see
 * functions/use-cases/get-generation.ts), so a timed-out or aborted one ends failed and refunded.
 *
 * Errors: 404 `NOT_FOUND` for an unknown id and for another user's generation alike.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { headshots, ...generation } = await viewGeneration(sub, event.pathParameters?.id ?? '');
  return json<Generation>(200, { ...generation, headshots: await Promise.all(headshots.map(toHeadshot)) });
});
