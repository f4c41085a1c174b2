import { deleteGeneration } from '../adapters/generations';
import { deleteHeadshot } from '../adapters/headshots/changes';
import { deleteHeadshotVersions } from '../adapters/headshots/versions';
import {
  deleteReferenceDescriptor,
  deleteRetentionMarker,
  dueRetentionMarkers,
  headshotIdsOfGeneration,
  putRetentionMarker,
} from '../adapters/retention';
import { withdrawShares } from './withdraw-shares';

/** What retention needs from the outside world: its markers, the descriptors, the headshots, the generations. */
export interface RetentionPorts {
  deleteReferenceDescriptor: typeof deleteReferenceDescriptor;
  putRetentionMarker: typeof putRetentionMarker;
  dueRetentionMarkers: typeof dueRetentionMarkers;
  deleteRetentionMarker: typeof deleteRetentionMarker;
  headshotIdsOfGeneration: typeof headshotIdsOfGeneration;
  /** Takes a headshot out of the teams it is shared with (issue 37): before its files go, and after its item. */
  withdrawShares: typeof withdrawShares;
  deleteHeadshot: typeof deleteHeadshot;
  /** Every version of a headshot (issue 36): they expire with it. */
  deleteHeadshotVersions: typeof deleteHeadshotVersions;
  deleteGeneration: typeof deleteGeneration;
}

/** The real adapters of {@link RetentionPorts}. */
export const retentionAdapters: RetentionPorts = {
  deleteReferenceDescriptor,
  putRetentionMarker,
  dueRetentionMarkers,
  deleteRetentionMarker,
  headshotIdsOfGeneration,
  withdrawShares,
  deleteHeadshot,
  deleteHeadshotVersions,
  deleteGeneration,
};

/**
 * What happens to a generation once no execution can run it any more (the sweeper retires its sweep marker):
 * the descriptor of its reference photos is deleted (biometric data, needed only while its headshots are being
 * checked), and its headshots' retention period starts counting down (docs/decisions/011-retention.md).
 * Idempotent. Nothing is done for a generation that no longer exists (its customer deleted it).
 *
 * @param createdAt the generation's creation (ISO 8601), from which its headshots' retention is counted
 */
export async function retireGeneration(
  sub: string,
  generationId: string,
  createdAt: string,
  ports: Pick<RetentionPorts, 'deleteReferenceDescriptor' | 'putRetentionMarker'> = retentionAdapters,
): Promise<void> {
  if (!(await ports.deleteReferenceDescriptor(sub, generationId))) return;
  await ports.putRetentionMarker(sub, generationId, createdAt);
}

/** What one retention pass did. */
export interface ExpiryResult {
  /** Generations whose retention had ended (their headshots and item are deleted). */
  generations: number;
  /** Headshots deleted (files, gallery item and counters). */
  headshots: number;
}

/**
 * Deletes the headshots whose retention period ended before `nowMs` (domain/retention.ts
 * `HEADSHOT_RETENTION_DAYS`, counted from their generation), as the gallery's delete does — its shares with teams
 * (issue 37: a team never links to a deleted file), its versions (issue 36:
 * they belong to the headshot and go with it, whenever they were made), the four files, the item and the gallery's
 * counters — then the generation item and its retention marker. An edit's generation has no headshots of its own:
 * only its item and marker go. A failure part way leaves the
 * marker, so the next run finishes the job.
 *
 * @param options.limit at most this many generations per run (the next run continues), default 100
 */
export async function expireHeadshots(
  nowMs = Date.now(),
  options: { limit?: number } = {},
  ports: RetentionPorts = retentionAdapters,
): Promise<ExpiryResult> {
  const limit = options.limit ?? 100;
  const result: ExpiryResult = { generations: 0, headshots: 0 };
  for await (const marker of ports.dueRetentionMarkers(new Date(nowMs).toISOString())) {
    if (result.generations >= limit) break;
    const { userId: sub, generationId } = marker;
    for (const id of await ports.headshotIdsOfGeneration(sub, generationId)) {
      await ports.withdrawShares(sub, { headshotId: id });
      await ports.deleteHeadshotVersions(sub, id);
      if (await ports.deleteHeadshot(sub, id)) result.headshots++;
      await ports.withdrawShares(sub, { headshotId: id });
    }
    await ports.deleteGeneration(sub, generationId);
    await ports.deleteRetentionMarker(marker);
    result.generations++;
  }
  return result;
}
