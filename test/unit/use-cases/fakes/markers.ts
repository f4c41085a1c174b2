import type { RetentionMarker } from '../../../../functions/adapters/retention';
import type { DueMarker } from '../../../../functions/adapters/sweeper';
import { headshotExpiry } from '../../../../functions/domain/retention';
import type { RetentionPorts } from '../../../../functions/use-cases/expire-headshots';
import type { FakeGenerations } from './generations';
import { FakeHeadshotVersions } from './headshot-versions';

/** The markers of `map` whose key (time first) is before `cutoff`, in key order, read as the loop goes. */
async function* due<T>(map: Map<string, T>, cutoff: string): AsyncGenerator<T> {
  for (const key of [...map.keys()].sort()) {
    if (key >= cutoff) return;
    const marker = map.get(key);
    if (marker) yield structuredClone(marker);
  }
}

/**
 * The sweeper's and retention's markers (adapters/sweeper.ts, adapters/retention.ts), in memory: each keyed by its
 * time then owner and generation, read in time order up to a cutoff, and removed one by one. Pass its methods as
 * ports; read {@link sweep} and {@link retention} in assertions.
 */
export class FakeMarkers {
  readonly sweep = new Map<string, DueMarker>();
  readonly retention = new Map<string, RetentionMarker>();

  /** A sweep marker of `sub`'s generation `generationId`, due at `deadline` (ISO 8601). */
  addSweepMarker(sub: string, generationId: string, deadline: string): DueMarker {
    const marker: DueMarker = {
      PK: 'SWEEP#generations',
      SK: `${deadline}#${sub}#${generationId}`,
      userId: sub,
      generationId,
      deadline,
    };
    this.sweep.set(marker.SK, marker);
    return marker;
  }

  readonly dueMarkers = (cutoff: string): AsyncGenerator<DueMarker> => due(this.sweep, cutoff);

  readonly deleteMarker = async (marker: Pick<DueMarker, 'PK' | 'SK'>): Promise<void> => {
    this.sweep.delete(marker.SK);
  };

  readonly putRetentionMarker = async (
    sub: string,
    generationId: string,
    createdAt: string,
  ): Promise<void> => {
    const expiry = headshotExpiry(createdAt);
    const SK = `${expiry}#${sub}#${generationId}`;
    this.retention.set(SK, { PK: 'RETENTION#headshots', SK, userId: sub, generationId, expiry });
  };

  readonly dueRetentionMarkers = (cutoff: string): AsyncGenerator<RetentionMarker> =>
    due(this.retention, cutoff);

  readonly deleteRetentionMarker = async (marker: Pick<RetentionMarker, 'PK' | 'SK'>): Promise<void> => {
    this.retention.delete(marker.SK);
  };
}

/** Retention's ports (use-cases/expire-headshots.ts) on in-memory generations and markers. */
export function retentionPortsOf(
  generations: FakeGenerations,
  markers: FakeMarkers,
  versions = new FakeHeadshotVersions(() => undefined),
): RetentionPorts {
  return {
    deleteReferenceDescriptor: generations.deleteReferenceDescriptor,
    putRetentionMarker: markers.putRetentionMarker,
    dueRetentionMarkers: markers.dueRetentionMarkers,
    deleteRetentionMarker: markers.deleteRetentionMarker,
    headshotIdsOfGeneration: generations.headshotIdsOfGeneration,
    // Nothing of these users is shared with a team (test/unit/use-cases/withdraw-shares.test.ts covers sharing).
    withdrawShares: async () => 0,
    deleteHeadshot: generations.deleteHeadshot,
    deleteHeadshotVersions: versions.deleteHeadshotVersions,
    deleteGeneration: generations.deleteGeneration,
  };
}
