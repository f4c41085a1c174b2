import { getGeneration, type GenerationRecord } from '../adapters/generations';
import { getHeadshots } from '../adapters/headshots/records';
import { livePlace } from '../adapters/provider-queue/positions';
import { DOWNLOAD_URL_TTL_SECONDS } from '../adapters/storage';
import type { Generation } from '../contracts';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import { isTerminal } from '../domain/generation-status';
import { isUlid } from '../domain/object-keys';
import { notFound } from './errors';
import { reconcileGeneration } from '../use-cases/reconcile-generation';
import { callerOf, httpHandler, json } from './handler';
import { toHeadshot } from './headshot-view';

/**
 * The customer's place in line: `null` once the generation ended or before it reached the line (photos being
 * prepared); `{ position: 0, etaSeconds: 0 }` once a slot was admitted (running); else `live` (the place computed
 * now, see {@link currentQueue}) or the last recorded place with the estimate counted down by the time since it was
 * recorded (seconds, never below 0).
 */
export function queueView(
  g: GenerationRecord,
  now = Date.now(),
  live?: { position: number; etaSeconds: number },
): { position: number; etaSeconds: number } | null {
  if (isTerminal(g.status)) return null;
  if (g.admittedAt) return { position: 0, etaSeconds: 0 };
  if (!g.queue) return null;
  if (live) return live;
  const elapsed = Math.max(0, Math.floor((now - Date.parse(g.queue.at)) / 1000));
  return { position: g.queue.position, etaSeconds: Math.max(0, g.queue.etaSeconds - elapsed) };
}

/**
 * The place of a generation waiting in the provider line, computed now from the line's counters (two small reads,
 * whatever the length of the line: adapters/provider-queue/line.ts `placeOf`); `undefined` when it is not waiting.
 */
async function currentQueue(g: GenerationRecord) {
  if (isTerminal(g.status) || g.admittedAt || g.queue?.orderKey === undefined) return undefined;
  return livePlace(g.queue.orderKey, g.id);
}

/** The API view of a generation ({@link Generation}, functions/contracts; see the handler's contract). */
export async function generationView(g: GenerationRecord): Promise<Generation> {
  const ids = Object.entries(g.slots)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, id]) => id);
  const headshots = await Promise.all((await getHeadshots(g.userId, ids)).map(toHeadshot));
  return {
    id: g.id,
    status: g.status,
    stage: g.stage,
    progress: g.progress,
    style: g.style,
    background: g.background,
    error: g.error ?? null,
    queue: queueView(g, Date.now(), await currentQueue(g)),
    headshotsExpected: g.slotCount ?? HEADSHOTS_PER_GENERATION,
    regeneratedFrom: g.regeneratedFrom ?? null,
    headshots,
    creditsReserved: g.creditsReserved,
    creditsRefunded: g.creditsRefunded,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
    completedAt: g.completedAt ?? null,
    urlsExpireAt: new Date(Date.now() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString(),
  };
}

/**
 * `GET /api/generations/{id}` (jwt, owner only) → 200 `{ id, status, stage, progress, style, background, error, queue,
 * headshotsExpected: 6 (1 when regenerating), regeneratedFrom, headshots: Headshot[] (functions/contracts), creditsReserved, creditsRefunded, createdAt, updatedAt, completedAt, urlsExpireAt }`.
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
 * functions/use-cases/reconcile-generation.ts), so a timed-out or aborted one ends failed and refunded.
 *
 * Errors: 404 `NOT_FOUND` for an unknown id and for another user's generation alike.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = event.pathParameters?.id ?? '';
  if (!isUlid(id)) throw notFound('Generation not found.');
  const found = await getGeneration(sub, id);
  if (!found) throw notFound('Generation not found.');
  const generation = await reconcileGeneration(found);
  return json<Generation>(200, await generationView(generation));
});
