import { describe, expect, it } from 'vitest';
import { compensateGeneration } from '../../../functions/use-cases/compensate-generation';
import {
  expireHeadshots,
  retireGeneration,
  type RetentionPorts,
} from '../../../functions/use-cases/expire-headshots';
import {
  sweepGenerations,
  sweepStrandedGenerations,
  type SweepGenerationsPorts,
} from '../../../functions/use-cases/sweep-generations';
import { GENERATION_ERROR_MESSAGES } from '../../../functions/domain/generation-errors';
import type { GenerationTimeBudget } from '../../../functions/domain/generation-deadline';
import { failing } from './fakes/failures';
import { compensationPortsOf, FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeLedger } from './fakes/ledger';
import { FakeMarkers, retentionPortsOf } from './fakes/markers';

const SUB = 'user-1';
const NOW = Date.parse('2026-01-01T02:00:00.000Z');
/** The sweeper leaves a generation alone for a minute past its deadline. */
const BUDGET: GenerationTimeBudget = {
  deadlineMinutes: 30,
  slotSeconds: 300,
  executionTimeoutSeconds: 2400,
  maxRuntimeMs: 2_400_000,
  sweepAfterMs: 1_860_000,
  sweepGraceMs: 60_000,
};
const PAST = '2026-01-01T01:00:00.000Z';
const id = (n: number) => `01KDWYDY00ZZZZZZZZZZZZZZ${String(n).padStart(2, '0')}`;

/** Generations with sweep markers, the ledger their credits came from, and the real compensation and retention. */
function world() {
  const generations = new FakeGenerations();
  const ledger = new FakeLedger();
  const markers = new FakeMarkers();
  ledger.seedUser(SUB, 60);
  const retention: RetentionPorts = retentionPortsOf(generations, markers);
  const ports: SweepGenerationsPorts = {
    dueMarkers: markers.dueMarkers,
    deleteMarker: markers.deleteMarker,
    getGeneration: generations.getGeneration,
    compensateGeneration: (sub, gid, error) =>
      compensateGeneration(sub, gid, error, compensationPortsOf(generations, ledger)),
    retireGeneration: (sub, gid, createdAt) => retireGeneration(sub, gid, createdAt, retention),
    expireHeadshots: (nowMs) => expireHeadshots(nowMs, {}, retention),
  };
  /** A generation of `fields` whose 6 credits were spent, with its sweep marker due at `deadline`. */
  const add = (n: number, fields: Partial<FakeGeneration> = {}, deadline = PAST) => {
    const generation = generations.seed({
      id: id(n),
      status: 'running',
      referenceDescriptor: 'AAAA',
      ...fields,
    });
    void ledger.spendCredits({ sub: SUB, amount: 6, ref: generation.id });
    markers.addSweepMarker(SUB, generation.id, deadline);
    return generation;
  };
  return { generations, ledger, markers, ports, add };
}

describe('sweepStrandedGenerations', () => {
  it('compensates an open generation past its deadline and retires it: refunded, failed, descriptor gone', async () => {
    const { ports, add, generations, ledger, markers } = world();
    const { id: gid } = add(1);
    const result = await sweepStrandedGenerations(NOW, { budget: BUDGET }, ports);
    expect(result).toEqual({ examined: 1, compensated: [gid] });
    expect(generations.stored(SUB, gid)).toMatchObject({
      status: 'failed',
      error: { code: 'TIMED_OUT', message: GENERATION_ERROR_MESSAGES.TIMED_OUT },
      creditsRefunded: 6,
    });
    expect(generations.stored(SUB, gid)!.referenceDescriptor).toBeUndefined();
    expect(ledger.balance(SUB)).toBe(60);
    expect(markers.sweep.size).toBe(0);
    expect([...markers.retention.values()].map((m) => m.generationId)).toEqual([gid]);
  });

  it('retires a generation that ended without refunding it again', async () => {
    const { ports, add, ledger, markers } = world();
    add(1, { status: 'succeeded' });
    expect((await sweepStrandedGenerations(NOW, { budget: BUDGET }, ports)).compensated).toEqual([]);
    expect(ledger.balance(SUB)).toBe(54);
    expect(markers.retention.size).toBe(1);
  });

  it('drops the marker of a generation that is gone (its customer deleted it)', async () => {
    const { ports, markers } = world();
    markers.addSweepMarker(SUB, id(7), PAST);
    expect(await sweepStrandedGenerations(NOW, { budget: BUDGET }, ports)).toEqual({
      examined: 1,
      compensated: [],
    });
    expect(markers.sweep.size).toBe(0);
    expect(markers.retention.size).toBe(0);
  });

  it('leaves a generation an execution may still be working on (inside the grace after its deadline)', async () => {
    const { ports, add, generations, markers } = world();
    const { id: gid } = add(1, {}, new Date(NOW - BUDGET.sweepGraceMs + 1).toISOString());
    expect((await sweepStrandedGenerations(NOW, { budget: BUDGET }, ports)).examined).toBe(0);
    expect(generations.stored(SUB, gid)!.status).toBe('running');
    expect(markers.sweep.size).toBe(1);
  });

  it('reads at most `limit` markers, oldest first; the next run continues', async () => {
    const { ports, add, markers } = world();
    add(1, {}, '2026-01-01T00:30:00.000Z');
    add(2, {}, '2026-01-01T00:10:00.000Z');
    add(3, {}, '2026-01-01T00:20:00.000Z');
    const first = await sweepStrandedGenerations(NOW, { budget: BUDGET, limit: 2 }, ports);
    expect(first.compensated).toEqual([id(2), id(3)]);
    expect([...markers.sweep.values()].map((m) => m.generationId)).toEqual([id(1)]);
  });

  it('keeps the marker when the compensation fails, so the next run tries again', async () => {
    const { ports, add, markers } = world();
    add(1);
    const broken = { ...ports, compensateGeneration: failing(new Error('table down')) };
    await expect(sweepStrandedGenerations(NOW, { budget: BUDGET }, broken)).rejects.toThrow('table down');
    expect(markers.sweep.size).toBe(1);
  });
});

describe('sweepGenerations (the scheduled run)', () => {
  it('sweeps, then deletes the headshots whose retention ended', async () => {
    const { ports, add, generations, markers } = world();
    add(1);
    const old = generations.seed({ id: id(9), status: 'succeeded', createdAt: '2024-06-01T00:00:00.000Z' });
    await generations.saveHeadshot({
      sub: SUB,
      generationId: old.id,
      slot: 0,
      style: 'professional',
      background: 'studio',
      imageKey: 'k',
      thumbnailKey: 't',
      likeness: 90,
      provider: 'openai',
    });
    await markers.putRetentionMarker(SUB, old.id, old.createdAt);
    const result = await sweepGenerations(NOW, ports);
    expect(result).toEqual({ examined: 1, compensated: [id(1)], expired: { generations: 1, headshots: 1 } });
    expect(generations.stored(SUB, old.id)).toBeUndefined();
  });

  it('fails when retention fails, after the sweep has done its work', async () => {
    const { ports, add, ledger } = world();
    add(1);
    const broken = { ...ports, expireHeadshots: failing(new Error('table down')) };
    await expect(sweepGenerations(NOW, broken)).rejects.toThrow('table down');
    expect(ledger.balance(SUB)).toBe(60);
  });
});
