import { reconcileGeneration } from '../adapters/executions';
import {
  getGeneration,
  getHeadshots,
  type GenerationRecord,
  type HeadshotRecord,
} from '../adapters/generations';
import { DOWNLOAD_URL_TTL_SECONDS, presignDownload } from '../adapters/storage';
import { HEADSHOTS_PER_GENERATION, isTerminal } from '../domain/generation';
import { isUlid } from '../domain/object-keys';
import { notFound } from './errors';
import { callerOf, httpHandler, json } from './handler';

/** One headshot as the wizard shows it; URLs are presigned GETs valid 15 minutes. */
export interface HeadshotView {
  id: string;
  /** 0-5, the order the wizard's grid uses. */
  slot: number;
  style: string;
  background: string;
  isFavorite: boolean;
  /** How much it looks like the customer, 0-100; null for headshots made before likeness was measured. */
  likeness: number | null;
  createdAt: string;
  /** WebP, ≤ 384 px. */
  thumbnailUrl: string;
  /** 1024×1024 JPEG, inline. */
  imageUrl: string;
  /** The same JPEG as an attachment named `headshot-<id>.jpg`. */
  downloadUrl: string;
  fileName: string;
}

async function headshotView(h: HeadshotRecord): Promise<HeadshotView> {
  const fileName = `headshot-${h.id}.jpg`;
  const [thumbnailUrl, imageUrl, downloadUrl] = await Promise.all([
    presignDownload('results', h.thumbnailKey),
    presignDownload('results', h.imageKey),
    presignDownload('results', h.imageKey, fileName),
  ]);
  return {
    id: h.id,
    slot: h.slot,
    style: h.style,
    background: h.background,
    isFavorite: h.isFavorite,
    likeness: h.likeness ?? null,
    createdAt: h.createdAt,
    thumbnailUrl,
    imageUrl,
    downloadUrl,
    fileName,
  };
}

/**
 * The customer's place in line: `null` once the generation ended or before it reached the line (photos being
 * prepared); `{ position: 0, etaSeconds: 0 }` once a slot was admitted (running); else the last recorded place with
 * the estimate counted down by the time since it was recorded (seconds, never below 0).
 */
export function queueView(
  g: GenerationRecord,
  now = Date.now(),
): { position: number; etaSeconds: number } | null {
  if (isTerminal(g.status)) return null;
  if (g.admittedAt) return { position: 0, etaSeconds: 0 };
  if (!g.queue) return null;
  const elapsed = Math.max(0, Math.floor((now - Date.parse(g.queue.at)) / 1000));
  return { position: g.queue.position, etaSeconds: Math.max(0, g.queue.etaSeconds - elapsed) };
}

/** The API view of a generation (see the handler's contract). */
export async function generationView(g: GenerationRecord) {
  const ids = Object.entries(g.slots)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, id]) => id);
  const headshots = await Promise.all((await getHeadshots(g.userId, ids)).map(headshotView));
  return {
    id: g.id,
    status: g.status,
    stage: g.stage,
    progress: g.progress,
    style: g.style,
    background: g.background,
    error: g.error ?? null,
    queue: queueView(g),
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
 * headshotsExpected: 6 (1 when regenerating), regeneratedFrom, headshots: [{ id, slot, style, background, isFavorite, likeness, createdAt, thumbnailUrl, imageUrl,
 * downloadUrl, fileName }], creditsReserved, creditsRefunded, createdAt, updatedAt, completedAt, urlsExpireAt }`.
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
 * adapters/executions.ts), so a timed-out or aborted one ends failed and refunded.
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
  return json(200, await generationView(generation));
});
