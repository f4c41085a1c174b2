import { describe, expect, it } from 'vitest';
import { compensateGeneration } from '../../../functions/use-cases/compensate-generation';
import {
  compensateEndedExecution,
  errorFor,
  RECONCILE_AFTER_MS,
  reconcileGeneration,
  type ReconcileGenerationPorts,
} from '../../../functions/use-cases/reconcile-generation';
import { GENERATION_ERROR_MESSAGES } from '../../../functions/domain/generation-errors';
import { failing } from './fakes/failures';
import { compensationPortsOf, FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeLedger } from './fakes/ledger';

const SUB = 'user-1';
const UPDATED = '2026-01-01T00:00:00.000Z';
const LATER = Date.parse(UPDATED) + RECONCILE_AFTER_MS;

/** A running generation last written at {@link UPDATED}, its execution's status, and the real compensation. */
function world(fields: Partial<FakeGeneration> = {}, executionStatus?: string) {
  const generations = new FakeGenerations();
  const ledger = new FakeLedger();
  ledger.seedUser(SUB, 10);
  const generation = generations.seed({ status: 'running', updatedAt: UPDATED, ...fields });
  void ledger.spendCredits({ sub: SUB, amount: generation.creditsReserved, ref: generation.id });
  const asked: string[] = [];
  const ports: ReconcileGenerationPorts = {
    describeExecutionStatus: async (id) => {
      asked.push(id);
      return executionStatus;
    },
    getGeneration: generations.getGeneration,
    setCheckedAt: generations.setCheckedAt,
    compensateGeneration: (sub, id, error) =>
      compensateGeneration(sub, id, error, compensationPortsOf(generations, ledger)),
  };
  const stored = () => generations.stored(SUB, generation.id)!;
  return { generations, ledger, generation, ports, asked, stored };
}

describe('errorFor', () => {
  it('names a timeout, a start that never happened and any other end', () => {
    expect(errorFor('TIMED_OUT')).toEqual({
      code: 'TIMED_OUT',
      message: GENERATION_ERROR_MESSAGES.TIMED_OUT,
    });
    expect(errorFor(undefined).code).toBe('START_FAILED');
    expect(errorFor('ABORTED').code).toBe('GENERATION_FAILED');
    expect(errorFor('SUCCEEDED').code).toBe('GENERATION_FAILED');
  });
});

describe('reconcileGeneration', () => {
  it('does not ask about a generation written to within the last minute', async () => {
    const { generation, ports, asked } = world({}, 'TIMED_OUT');
    expect(await reconcileGeneration(generation, LATER - 1, ports)).toBe(generation);
    expect(asked).toEqual([]);
  });

  it('does not ask about a generation that already ended', async () => {
    const { generation, ports, asked } = world({ status: 'succeeded' }, 'TIMED_OUT');
    await reconcileGeneration(generation, LATER * 2, ports);
    expect(asked).toEqual([]);
  });

  it('leaves a generation whose execution still runs, and postpones the next check by a minute', async () => {
    const { generation, ports, asked, stored, ledger } = world({}, 'RUNNING');
    expect(await reconcileGeneration(generation, LATER, ports)).toEqual(generation);
    expect(stored().checkedAt).toBe(new Date(LATER).toISOString());
    await reconcileGeneration(stored(), LATER + RECONCILE_AFTER_MS - 1, ports);
    expect(asked).toHaveLength(1);
    expect(ledger.balance(SUB)).toBe(4);
  });

  it('compensates a generation whose execution timed out: failed, every credit back', async () => {
    const { generation, ports, ledger } = world({}, 'TIMED_OUT');
    const reconciled = await reconcileGeneration(generation, LATER, ports);
    expect(reconciled).toMatchObject({ status: 'failed', error: errorFor('TIMED_OUT'), creditsRefunded: 6 });
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('compensates a generation whose execution never started', async () => {
    const { generation, ports } = world({}, undefined);
    expect((await reconcileGeneration(generation, LATER, ports)).error?.code).toBe('START_FAILED');
  });

  it('fails when Step Functions cannot be asked, changing nothing', async () => {
    const { generation, ports, stored } = world();
    const broken = { ...ports, describeExecutionStatus: failing(new Error('throttled')) };
    await expect(reconcileGeneration(generation, LATER, broken)).rejects.toThrow('throttled');
    expect(stored().status).toBe('running');
  });
});

describe('compensateEndedExecution', () => {
  it('compensates a generation whose execution ended early', async () => {
    const { generation, ports, stored, ledger } = world();
    expect(await compensateEndedExecution(SUB, generation.id, 'ABORTED', ports)).toBe(true);
    expect(stored()).toMatchObject({ status: 'failed', error: errorFor('ABORTED') });
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('leaves a generation that already ended, and one that is gone', async () => {
    const { generation, ports, ledger } = world({ status: 'partial' });
    expect(await compensateEndedExecution(SUB, generation.id, 'FAILED', ports)).toBe(false);
    expect(await compensateEndedExecution(SUB, '01KDWYDY00ZZZZZZZZZZZZZZZZ', 'FAILED', ports)).toBe(false);
    expect(ledger.entriesOf(SUB, 'refund')).toEqual([]);
  });

  it('fails when the compensation fails (the event is delivered again)', async () => {
    const { generation, ports } = world();
    const broken = { ...ports, compensateGeneration: failing(new Error('table down')) };
    await expect(compensateEndedExecution(SUB, generation.id, 'TIMED_OUT', broken)).rejects.toThrow(
      'table down',
    );
  });
});
