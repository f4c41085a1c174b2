import { describe, expect, it } from 'vitest';
import { DOWNLOAD_URL_TTL_SECONDS } from '../../../functions/adapters/storage';
import { compensateGeneration } from '../../../functions/use-cases/compensate-generation';
import {
  GENERATION_NOT_FOUND,
  queueView,
  viewGeneration,
  type GetGenerationPorts,
  type QueuePlace,
} from '../../../functions/use-cases/get-generation';
import { RECONCILE_AFTER_MS, reconcileGeneration } from '../../../functions/use-cases/reconcile-generation';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import type { PartialPreview } from '../../../functions/adapters/partial-images';
import type { HeadshotVersion } from '../../../functions/contracts/edits';
import { failing } from './fakes/failures';
import { compensationPortsOf, FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeLedger } from './fakes/ledger';

const SUB = 'user-1';
const UPDATED = '2026-01-01T00:00:00.000Z';
const NOW = Date.parse(UPDATED) + 10_000;
/** A version's view as use-cases/list-headshot-versions.ts makes it (its id and headshot filled in per call). */
const VERSION_VIEW: HeadshotVersion = {
  id: '',
  headshotId: '',
  sourceVersionId: null,
  generationId: 'g',
  edit: { kind: 'upscale' },
  likeness: 90,
  preview: false,
  transparent: false,
  createdAt: UPDATED,
  thumbnailUrl: 't',
  imageUrl: 'i',
  variants: [],
};

/** A generation of `fields`, its execution's status, and the line's live place (when it can be computed). */
function world(
  fields: Partial<FakeGeneration> = {},
  options: { execution?: string; live?: QueuePlace; partials?: PartialPreview[] } = {},
) {
  const generations = new FakeGenerations();
  const ledger = new FakeLedger();
  ledger.seedUser(SUB, 6);
  const generation = generations.seed({ status: 'running', updatedAt: UPDATED, ...fields });
  void ledger.spendCredits({ sub: SUB, amount: generation.creditsReserved, ref: generation.id });
  let clock = NOW;
  const asked: number[] = [];
  const listed: string[] = [];
  const versionsAsked: { headshotId: string; versionIds: string[] }[] = [];
  const ports: GetGenerationPorts = {
    getGeneration: generations.getGeneration,
    reconcileGeneration: (record) =>
      reconcileGeneration(record, clock, {
        describeExecutionStatus: async () => options.execution ?? 'RUNNING',
        getGeneration: generations.getGeneration,
        setCheckedAt: generations.setCheckedAt,
        compensateGeneration: (sub, id, error) =>
          compensateGeneration(sub, id, error, compensationPortsOf(generations, ledger)),
      }),
    getHeadshots: generations.getHeadshots,
    livePlace: async (orderKey) => {
      asked.push(orderKey);
      return options.live;
    },
    now: () => clock,
    latestPartialImages: async (sub, id) => {
      listed.push(id);
      return options.partials ?? [];
    },
    savedVersionViews: async (_sub, headshotId, versionIds) => {
      versionsAsked.push({ headshotId, versionIds: [...versionIds] });
      return versionIds.map((id) => ({ ...VERSION_VIEW, id, headshotId }));
    },
  };
  const later = (ms: number) => (clock += ms);
  return { generations, ledger, generation, ports, asked, listed, versionsAsked, later };
}

async function saveSlots(generations: FakeGenerations, id: string, slots: number[]) {
  for (const slot of slots) {
    await generations.saveHeadshot({
      sub: SUB,
      generationId: id,
      slot,
      style: 'professional',
      background: 'studio',
      imageKey: `k${slot}`,
      thumbnailKey: `t${slot}`,
      likeness: 90,
      provider: 'openai',
    });
  }
}

describe('viewGeneration', () => {
  it('shows the generation with its headshots in slot order and when their URLs expire', async () => {
    const { generations, generation, ports } = world({ admittedAt: UPDATED });
    await saveSlots(generations, generation.id, [4, 1]);
    const view = await viewGeneration(SUB, generation.id, ports);
    expect(view).toMatchObject({
      id: generation.id,
      status: 'running',
      headshotsExpected: 6,
      regeneratedFrom: null,
      error: null,
      completedAt: null,
      queue: { position: 0, etaSeconds: 0 },
      urlsExpireAt: new Date(NOW + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString(),
    });
    expect(view.headshots.map((h) => h.slot)).toEqual([1, 4]);
  });

  it('expects one headshot of a regeneration', async () => {
    const { generation, ports } = world({ slotCount: 1, creditsReserved: 1, regeneratedFrom: 'headshot-9' });
    expect(await viewGeneration(SUB, generation.id, ports)).toMatchObject({
      headshotsExpected: 1,
      regeneratedFrom: 'headshot-9',
    });
  });

  it("names an edit's headshot and what it changes, and no edit on other generations", async () => {
    const edit = { headshotId: 'headshot-9', sourceVersionId: 'v1', request: { kind: 'upscale' } } as const;
    const { generation, ports } = world({ slotCount: 1, creditsReserved: 1, edit });
    expect((await viewGeneration(SUB, generation.id, ports)).edit).toEqual({
      kind: 'upscale',
      headshotId: 'headshot-9',
    });
    const plain = world({});
    expect((await viewGeneration(SUB, plain.generation.id, plain.ports)).edit).toBeNull();
  });

  it("answers an edit's saved version as versions, and no headshots (issue 36)", async () => {
    const edit = { headshotId: 'headshot-9', request: { kind: 'upscale' } } as const;
    const { generation, generations, ports, versionsAsked } = world({
      slotCount: 1,
      creditsReserved: 1,
      edit,
    });
    generations.stored(SUB, generation.id)!.slots = { 0: 'version-1' };
    const view = await viewGeneration(SUB, generation.id, {
      ...ports,
      getHeadshots: failing(new Error('not asked')),
    });
    expect(view.headshots).toEqual([]);
    expect(view.versions).toEqual([{ ...VERSION_VIEW, id: 'version-1', headshotId: 'headshot-9' }]);
    expect(versionsAsked).toEqual([{ headshotId: 'headshot-9', versionIds: ['version-1'] }]);
    const plain = world({});
    expect((await viewGeneration(SUB, plain.generation.id, plain.ports)).versions).toEqual([]);
    expect(plain.versionsAsked).toEqual([]);
  });

  it('fails when the versions cannot be read', async () => {
    const edit = { headshotId: 'headshot-9', request: { kind: 'upscale' } } as const;
    const { generation, ports } = world({ slotCount: 1, creditsReserved: 1, edit });
    const down = { ...ports, savedVersionViews: failing(new Error('table down')) };
    await expect(viewGeneration(SUB, generation.id, down)).rejects.toThrow('table down');
  });

  it('shows the place in line computed now while the generation waits', async () => {
    const queue = { position: 7, etaSeconds: 90, at: UPDATED, orderKey: 42 };
    const { generation, ports, asked } = world({ queue }, { live: { position: 3, etaSeconds: 40 } });
    expect((await viewGeneration(SUB, generation.id, ports)).queue).toEqual({ position: 3, etaSeconds: 40 });
    expect(asked).toEqual([42]);
  });

  it('falls back on the place recorded, its wait counted down, when the live one cannot be computed', async () => {
    const queue = { position: 7, etaSeconds: 90, at: UPDATED, orderKey: 42 };
    const { generation, ports } = world({ queue });
    expect((await viewGeneration(SUB, generation.id, ports)).queue).toEqual({ position: 7, etaSeconds: 80 });
  });

  it('reconciles a generation silent for a minute whose execution timed out: failed and refunded', async () => {
    const { generation, ports, ledger, later, asked } = world(
      { queue: { position: 2, etaSeconds: 30, at: UPDATED, orderKey: 1 } },
      { execution: 'TIMED_OUT' },
    );
    later(RECONCILE_AFTER_MS);
    const view = await viewGeneration(SUB, generation.id, ports);
    expect(view).toMatchObject({ status: 'failed', creditsRefunded: 6, queue: null });
    expect(asked).toEqual([]);
    expect(ledger.balance(SUB)).toBe(6);
  });

  it("answers the same 404 for an id that is no ULID, an unknown one and another user's", async () => {
    const { generation, ports } = world();
    for (const [sub, id] of [
      [SUB, 'not-an-id'],
      [SUB, '01KDWYDY00ZZZZZZZZZZZZZZZZ'],
      ['user-2', generation.id],
    ] as const) {
      await expect(viewGeneration(sub, id, ports)).rejects.toThrow(
        new ItemNotFoundError(GENERATION_NOT_FOUND),
      );
    }
  });

  it("shows a running edit's latest partial image until its slot is saved; lists none for other generations", async () => {
    const edit = { headshotId: 'headshot-9', request: { kind: 'upscale' } } as const;
    const partials = [{ slot: 0, url: 'https://results/partial/0/1.png', index: 1 }];
    const running = world({ slotCount: 1, edit, admittedAt: UPDATED }, { partials });
    expect((await viewGeneration(SUB, running.generation.id, running.ports)).partialPreviews).toEqual(
      partials,
    );
    await saveSlots(running.generations, running.generation.id, [0]);
    expect((await viewGeneration(SUB, running.generation.id, running.ports)).partialPreviews).toEqual([]);
    const plain = world({ admittedAt: UPDATED }, { partials });
    const queued = world({ slotCount: 1, edit }, { partials });
    const ended = world({ slotCount: 1, edit, admittedAt: UPDATED, status: 'failed' }, { partials });
    for (const other of [plain, queued, ended]) {
      expect((await viewGeneration(SUB, other.generation.id, other.ports)).partialPreviews).toEqual([]);
      expect(other.listed).toEqual([]);
    }
  });

  it('answers without partial previews when they cannot be listed', async () => {
    const edit = { headshotId: 'headshot-9', request: { kind: 'upscale' } } as const;
    const { generation, ports } = world({ slotCount: 1, edit, admittedAt: UPDATED });
    const broken = { ...ports, latestPartialImages: failing(new Error('bucket down')) };
    expect((await viewGeneration(SUB, generation.id, broken)).partialPreviews).toEqual([]);
  });

  it('fails when the headshots cannot be read', async () => {
    const { generation, ports } = world();
    await expect(
      viewGeneration(SUB, generation.id, { ...ports, getHeadshots: failing(new Error('table down')) }),
    ).rejects.toThrow('table down');
  });
});

describe('queueView', () => {
  const base = { status: 'queued', queue: { position: 5, etaSeconds: 20, at: UPDATED } } as FakeGeneration;

  it('is null once ended or before the line, never negative while waiting', () => {
    expect(queueView({ ...base, status: 'partial' }, NOW)).toBeNull();
    expect(queueView({ ...base, queue: undefined }, NOW)).toBeNull();
    expect(queueView(base, NOW + 60_000)).toEqual({ position: 5, etaSeconds: 0 });
  });
});
