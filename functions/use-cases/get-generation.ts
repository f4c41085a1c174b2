import { getGeneration, type GenerationRecord } from '../adapters/generations';
import { getHeadshots, type HeadshotRecord } from '../adapters/headshots/records';
import { latestPartialImages } from '../adapters/partial-images';
import { livePlace } from '../adapters/provider-queue/positions';
import { DOWNLOAD_URL_TTL_SECONDS } from '../adapters/storage';
import type { HeadshotVersion } from '../contracts/edits';
import type { Generation } from '../contracts/generation';
import { logger } from '../common/logger';
import { ItemNotFoundError } from '../domain/errors';
import { isTerminal } from '../domain/generation-status';
import { isUlid } from '../domain/object-keys';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import { savedVersionViews } from './list-headshot-versions';
import { reconcileGeneration } from './reconcile-generation';

/** The answer for an unknown generation and for another user's alike (never says which). */
export const GENERATION_NOT_FOUND = 'Generation not found.';

/** A place in the provider line: `position` 1 = next up (0 once running), `etaSeconds` the estimated wait. */
export interface QueuePlace {
  position: number;
  etaSeconds: number;
}

/** What reading a generation needs from the outside world (and the reconciliation it runs). */
export interface GetGenerationPorts {
  getGeneration: typeof getGeneration;
  reconcileGeneration: (record: GenerationRecord) => Promise<GenerationRecord>;
  getHeadshots: (sub: string, ids: readonly string[]) => Promise<HeadshotRecord[]>;
  /** The place computed now from the line's counters; `undefined` when it cannot be. */
  livePlace: (orderKey: number, generationId: string) => Promise<QueuePlace | undefined>;
  /** The clock, epoch ms. */
  now: () => number;
  /** Each slot's latest partial image, presigned (adapters/partial-images.ts). */
  latestPartialImages: typeof latestPartialImages;
  /** The views of the versions an edit saved (use-cases/list-headshot-versions.ts). */
  savedVersionViews: (
    sub: string,
    headshotId: string,
    versionIds: readonly string[],
  ) => Promise<HeadshotVersion[]>;
}

const adapters: GetGenerationPorts = {
  getGeneration,
  reconcileGeneration: (record) => reconcileGeneration(record),
  getHeadshots,
  livePlace,
  now: Date.now,
  latestPartialImages,
  savedVersionViews: (sub, headshotId, versionIds) => savedVersionViews(sub, headshotId, versionIds),
};

/** A generation as `GET /api/generations/{id}` shows it, with its headshots' records (the route makes their views). */
export type GenerationView = Omit<Generation, 'headshots'> & { headshots: HeadshotRecord[] };

/**
 * The customer's place in line: `null` once the generation ended or before it reached the line (photos being
 * prepared); `{ position: 0, etaSeconds: 0 }` once a slot was admitted (running); else `live` (the place computed
 * now) or the last recorded place with the estimate counted down by the time since it was recorded (seconds, never
 * below 0).
 *
 * @param now epoch ms
 */
export function queueView(g: GenerationRecord, now: number, live?: QueuePlace): QueuePlace | null {
  if (isTerminal(g.status)) return null;
  if (g.admittedAt) return { position: 0, etaSeconds: 0 };
  if (!g.queue) return null;
  if (live) return live;
  const elapsed = Math.max(0, Math.floor((now - Date.parse(g.queue.at)) / 1000));
  return { position: g.queue.position, etaSeconds: Math.max(0, g.queue.etaSeconds - elapsed) };
}

/** The running edit's latest partial images; none when they cannot be listed (a preview never fails the poll). */
function partialPreviews(g: GenerationRecord, ports: GetGenerationPorts) {
  return ports.latestPartialImages(g.userId, g.id).catch((error: unknown) => {
    logger.warn('Partial previews could not be listed: the poll answers without them', {
      error: error as Error,
    });
    return [];
  });
}

/**
 * `GET /api/generations/{id}`: the caller's generation, reconciled with its execution first when it has not changed
 * for a minute (use-cases/reconcile-generation.ts: a timed-out or aborted one ends failed and refunded), with its
 * headshots in slot order and, while it waits for the image provider, its place in line computed now from the
 * line's counters (two small reads, whatever the line's length), and, while an edit runs, the latest partial image of
 * each unfinished slot (`partialPreviews`, presigned). An edit answers the version it saved as `versions` (issue 36)
 * and no headshots.
 *
 * @param id the path's id
 * @throws {ItemNotFoundError} ({@link GENERATION_NOT_FOUND}) for an id that is no ULID, an unknown generation and
 *   another user's alike
 */
export async function viewGeneration(
  sub: string,
  id: string,
  ports: GetGenerationPorts = adapters,
): Promise<GenerationView> {
  if (!isUlid(id)) throw new ItemNotFoundError(GENERATION_NOT_FOUND);
  const found = await ports.getGeneration(sub, id);
  if (!found) throw new ItemNotFoundError(GENERATION_NOT_FOUND);
  const g = await ports.reconcileGeneration(found);
  const ids = Object.entries(g.slots)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, headshotId]) => headshotId);
  const waiting = !isTerminal(g.status) && !g.admittedAt && g.queue?.orderKey !== undefined;
  // Only a running edit streams partial images (docs/decisions/025-openai-parameters.md): one List, no more.
  const streaming = Boolean(g.edit) && !isTerminal(g.status) && Boolean(g.admittedAt);
  // An edit's slots hold version ids (FinishHeadshot saves a version of the headshot), not headshots.
  const [headshots, versions, live, partials] = await Promise.all([
    g.edit ? [] : ports.getHeadshots(g.userId, ids),
    g.edit ? ports.savedVersionViews(g.userId, g.edit.headshotId, ids) : [],
    waiting ? ports.livePlace(g.queue!.orderKey!, g.id) : undefined,
    streaming ? partialPreviews(g, ports) : [],
  ]);
  const now = ports.now();
  return {
    id: g.id,
    status: g.status,
    stage: g.stage,
    progress: g.progress,
    style: g.style,
    background: g.background,
    error: g.error ?? null,
    queue: queueView(g, now, live),
    headshotsExpected: g.slotCount ?? HEADSHOTS_PER_GENERATION,
    regeneratedFrom: g.regeneratedFrom ?? null,
    edit: g.edit ? { ...g.edit.request, headshotId: g.edit.headshotId } : null,
    headshots,
    versions,
    // A finished slot shows its headshot (or nothing, refused): never the preview it replaced.
    partialPreviews: partials.filter((p) => g.slots[String(p.slot)] === undefined),
    creditsReserved: g.creditsReserved,
    creditsRefunded: g.creditsRefunded,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
    completedAt: g.completedAt ?? null,
    urlsExpireAt: new Date(now + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString(),
  };
}
