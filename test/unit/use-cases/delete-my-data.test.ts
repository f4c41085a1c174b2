import { describe, expect, it } from 'vitest';
import { AccountDeletingError, GenerationInProgressError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { deleteMyData, type DeleteMyDataPorts } from '../../../functions/use-cases/delete-my-data';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';
import { FakeQuotas } from './fakes/quotas';
import { FakeUserData } from './fakes/user-data';
import { deleteUserDataPorts } from './fakes/user-data-ports';

const sub = 'user-1';
const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function setup(overrides: Partial<DeleteMyDataPorts> = {}) {
  const data = new FakeUserData();
  const quotas = new FakeQuotas();
  const ledger = new FakeLedger();
  ledger.seedUser(sub, 12);
  data.seed(sub, { headshots: 7, objects: 20, generations: [{ id: 'g1' }, { id: 'g2', status: 'partial' }] });
  const ports: DeleteMyDataPorts = {
    ...deleteUserDataPorts(data),
    consumeQuota: quotas.consumeQuota,
    ...overrides,
  };
  return { data, quotas, ledger, ports };
}

describe('deleteMyData: every photo and what was made from it', () => {
  it('removes headshots, generations, photo checks and objects, and counts them; the balance stays', async () => {
    const { data, quotas, ledger, ports } = setup();
    expect(await deleteMyData(sub, NOW, ports)).toEqual({ headshots: 7, generations: 2, objects: 20 });
    expect(data.generations).toHaveLength(0);
    expect(data.photoChecks.has(sub)).toBe(false);
    expect(data.wizardDrafts.has(sub)).toBe(false);
    expect(quotas.usedBy(sub, 'data-deletions')).toBe(1);
    expect(ledger.balance(sub)).toBe(12);
  });

  it('is harmless to call again: nothing left, all counts 0', async () => {
    const { ports } = setup();
    await deleteMyData(sub, NOW, ports);
    expect(await deleteMyData(sub, NOW, ports)).toEqual({ headshots: 0, generations: 0, objects: 0 });
  });

  it('refuses with GenerationInProgressError while a generation may still run, deleting nothing', async () => {
    const { data, ports } = setup();
    data.seed(sub, {
      headshots: 7,
      objects: 20,
      generations: [{ id: 'g3', status: 'running', createdAt: minutesAgo(5) }],
    });
    const refused = await deleteMyData(sub, NOW, ports).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GenerationInProgressError);
    expect((refused as GenerationInProgressError).generationId).toBe('g3');
    expect(data.headshots.get(sub)).toBe(7);
    expect(data.wizardDrafts.has(sub)).toBe(true);
    expect(data.generations).toHaveLength(3);
  });

  it('compensates a generation no execution can finish any more (its slots refunded), then deletes it', async () => {
    const { data, ports } = setup();
    data.seed(sub, { generations: [{ id: 'stuck', status: 'queued', createdAt: minutesAgo(24 * 60) }] });
    await deleteMyData(sub, NOW, ports);
    expect(data.compensated).toEqual([
      { id: 'stuck', error: expect.objectContaining({ code: 'TIMED_OUT' }) },
    ]);
    expect(data.generations).toHaveLength(0);
  });

  it('refuses past the hourly quota with QuotaExceededError, deleting nothing', async () => {
    const { data, ports } = setup();
    for (let i = 0; i < 10; i++) await deleteMyData(sub, NOW, ports);
    data.seed(sub, { headshots: 3 });
    await expect(deleteMyData(sub, NOW, ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(data.headshots.get(sub)).toBe(3);
  });

  it('refuses an account whose deletion has started (AccountDeletingError)', async () => {
    const { quotas, data, ports } = setup();
    quotas.deleting.add(sub);
    await expect(deleteMyData(sub, NOW, ports)).rejects.toBeInstanceOf(AccountDeletingError);
    expect(data.headshots.get(sub)).toBe(7);
  });

  it('refuses a user id that could name other prefixes', async () => {
    const { data, ports } = setup();
    await expect(deleteMyData('../other', NOW, ports)).rejects.toThrow(/unexpected user id/);
    expect(data.objects.get(sub)).toBe(20);
  });

  it('lets a storage failure through after the items went, and a second call finishes the objects', async () => {
    const down = new Error('S3 down');
    const { data, ports } = setup({ deleteUserObjects: failing(down) });
    await expect(deleteMyData(sub, NOW, ports)).rejects.toBe(down);
    expect(data.headshots.get(sub)).toBe(0);
    expect(data.objects.get(sub)).toBe(20);
    const again = await deleteMyData(sub, NOW, { ...ports, deleteUserObjects: data.deleteUserObjects });
    expect(again).toEqual({ headshots: 0, generations: 0, objects: 20 });
  });
});
