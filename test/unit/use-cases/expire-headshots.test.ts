import { describe, expect, it } from 'vitest';
import {
  expireHeadshots,
  retireGeneration,
  type RetentionPorts,
} from '../../../functions/use-cases/expire-headshots';
import { headshotExpiry } from '../../../functions/domain/retention';
import { failing } from './fakes/failures';
import { FakeGenerations } from './fakes/generations';
import { FakeHeadshotVersions } from './fakes/headshot-versions';
import { FakeMarkers, retentionPortsOf } from './fakes/markers';

const SUB = 'user-1';
const CREATED = '2025-01-01T00:00:00.000Z';
const EXPIRED = Date.parse(headshotExpiry(CREATED)) + 1;
const id = (n: number) => `01KDWYDY00ZZZZZZZZZZZZZZ${String(n).padStart(2, '0')}`;

/** Generations with saved headshots, and retention's markers. */
function world() {
  const generations = new FakeGenerations();
  const markers = new FakeMarkers();
  const versions = new FakeHeadshotVersions((sub, headshotId) => {
    const headshot = generations.headshots.get(headshotId);
    return headshot?.userId === sub ? headshot : undefined;
  });
  const ports: RetentionPorts = retentionPortsOf(generations, markers, versions);
  /** A succeeded generation created at `createdAt` with `count` headshots, retired (its marker written). */
  const retired = async (n: number, count: number, createdAt = CREATED) => {
    const generation = generations.seed({
      id: id(n),
      status: 'succeeded',
      createdAt,
      referenceDescriptor: 'AAAA',
    });
    for (let slot = 0; slot < count; slot++) {
      await generations.saveHeadshot({
        sub: SUB,
        generationId: generation.id,
        slot,
        style: 'professional',
        background: 'studio',
        imageKey: `results/${SUB}/${generation.id}/${slot}.jpg`,
        thumbnailKey: `results/${SUB}/${generation.id}/thumbnails/${slot}.webp`,
        likeness: 90,
        provider: 'openai',
      });
    }
    await retireGeneration(SUB, generation.id, createdAt, ports);
    return generation;
  };
  return { generations, markers, versions, ports, retired };
}

describe('retireGeneration', () => {
  it("deletes the generation's reference descriptor and starts its headshots' retention", async () => {
    const { generations, markers, retired } = world();
    const { id: gid } = await retired(1, 0);
    expect(generations.stored(SUB, gid)!.referenceDescriptor).toBeUndefined();
    expect([...markers.retention.values()]).toEqual([
      expect.objectContaining({ userId: SUB, generationId: gid, expiry: headshotExpiry(CREATED) }),
    ]);
  });

  it('does nothing for a generation that no longer exists', async () => {
    const { markers, ports } = world();
    await retireGeneration(SUB, id(5), CREATED, ports);
    expect(markers.retention.size).toBe(0);
  });
});

describe('expireHeadshots', () => {
  it('deletes the headshots, the generation and the marker once retention ended', async () => {
    const { generations, markers, ports, retired } = world();
    const { id: gid } = await retired(1, 3);
    expect(await expireHeadshots(EXPIRED, {}, ports)).toEqual({ generations: 1, headshots: 3 });
    expect(generations.stored(SUB, gid)).toBeUndefined();
    expect(generations.headshots.size).toBe(0);
    expect(markers.retention.size).toBe(0);
  });

  it("deletes a headshot's versions with it, whenever they were made (issue 36)", async () => {
    const { generations, versions, ports, retired } = world();
    await retired(1, 2);
    const [first, second] = [...generations.headshots.keys()];
    versions.seed(SUB, first!, '01V1', { createdAt: new Date(EXPIRED - 1000).toISOString() });
    versions.seed(SUB, second!, '01V2');
    versions.seed('someone-else', first!, '01V3');
    await expireHeadshots(EXPIRED, {}, ports);
    expect([...versions.records.values()].map((v) => v.id)).toEqual(['01V3']);
    expect(versions.deletedKeys).toHaveLength(4);
  });

  it('keeps the headshot when its versions cannot be deleted, so the next run finishes the job', async () => {
    const { generations, markers, ports, retired } = world();
    await retired(1, 1);
    const broken = { ...ports, deleteHeadshotVersions: failing(new Error('table down')) };
    await expect(expireHeadshots(EXPIRED, {}, broken)).rejects.toThrow('table down');
    expect(generations.headshots.size).toBe(1);
    expect(markers.retention.size).toBe(1);
  });

  it('keeps headshots still inside their retention period', async () => {
    const { generations, ports, retired } = world();
    await retired(1, 2);
    expect(await expireHeadshots(EXPIRED - 2, {}, ports)).toEqual({ generations: 0, headshots: 0 });
    expect(generations.headshots.size).toBe(2);
  });

  it('does at most `limit` generations a run, oldest first', async () => {
    const { generations, ports, retired } = world();
    await retired(1, 1, '2025-01-03T00:00:00.000Z');
    await retired(2, 1, '2025-01-02T00:00:00.000Z');
    const later = Date.parse(headshotExpiry('2025-01-03T00:00:00.000Z')) + 1;
    expect(await expireHeadshots(later, { limit: 1 }, ports)).toEqual({ generations: 1, headshots: 1 });
    expect(generations.stored(SUB, id(2))).toBeUndefined();
    expect(generations.stored(SUB, id(1))).toBeDefined();
  });

  it('keeps the marker when a headshot cannot be deleted, so the next run finishes the job', async () => {
    const { generations, markers, ports, retired } = world();
    const { id: gid } = await retired(1, 2);
    const broken = { ...ports, deleteHeadshot: failing(new Error('bucket down')) };
    await expect(expireHeadshots(EXPIRED, {}, broken)).rejects.toThrow('bucket down');
    expect(markers.retention.size).toBe(1);
    expect(generations.stored(SUB, gid)).toBeDefined();
    expect(await expireHeadshots(EXPIRED, {}, ports)).toEqual({ generations: 1, headshots: 2 });
  });
});
