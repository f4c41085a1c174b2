import { describe, expect, it } from 'vitest';
import {
  compensateGeneration,
  creditsPerSlot,
  finalizeGeneration,
  markGenerationFailed,
  refundUndelivered,
} from '../../../functions/use-cases/compensate-generation';
import {
  GENERATION_ERROR_MESSAGES,
  GenerationNotFoundError,
  NoHeadshotsError,
} from '../../../functions/domain/generation-errors';
import {
  likenessRefusedError,
  likenessStopError,
  refusedForLikeness,
} from '../../../functions/domain/likeness-cap';
import { failingFirst } from './fakes/failures';
import { compensationPortsOf, FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeLedger } from './fakes/ledger';

const SUB = 'user-1';
const saved = (...slots: number[]) => Object.fromEntries(slots.map((s) => [String(s), `headshot-${s}`]));

/** A running generation of `fields` whose credits were spent from a balance of 10 (4 left). */
function world(fields: Partial<FakeGeneration> = {}) {
  const generations = new FakeGenerations();
  const ledger = new FakeLedger();
  ledger.seedUser(SUB, 10);
  const generation = generations.seed({ status: 'running', ...fields });
  // The fake ledger applies a change before its promise settles: the spend is done when this returns.
  void ledger.spendCredits({ sub: SUB, amount: generation.creditsReserved, ref: generation.id });
  const ports = compensationPortsOf(generations, ledger);
  const stored = () => generations.stored(SUB, generation.id)!;
  const refunds = () => ledger.entriesOf(SUB, 'refund').map(({ delta, ref }) => [ref, delta]);
  return { generations, ledger, generation, id: generation.id, ports, stored, refunds };
}

describe('creditsPerSlot', () => {
  it('is the credits reserved over the slots: 1, 2 at high resolution, 1 for a regeneration', () => {
    expect(creditsPerSlot({ creditsReserved: 6 })).toBe(1);
    expect(creditsPerSlot({ creditsReserved: 12 })).toBe(2);
    expect(creditsPerSlot({ creditsReserved: 1, slotCount: 1 })).toBe(1);
  });
});

describe('refundUndelivered', () => {
  it('closes the generation and refunds each slot without a headshot, once per slot', async () => {
    const { ports, id, ledger, stored, refunds } = world({ slots: saved(0, 3) });
    const closed = await refundUndelivered(SUB, id, 'workflow_failed', ports);
    expect(closed.closedAt).toBeDefined();
    expect(closed.creditsRefunded).toBe(4);
    expect(refunds()).toEqual([1, 2, 4, 5].map((slot) => [`${id}#slot-${slot}`, 1]));
    expect(ledger.balance(SUB)).toBe(8);
    expect(stored()).toMatchObject({ creditsRefunded: 4, closedAt: closed.closedAt });
  });

  it('refunds nothing twice when repeated (a retry, Finalize after RefundCredits, the sweeper)', async () => {
    const { ports, id, ledger, stored } = world({ slots: saved(1) });
    const first = await refundUndelivered(SUB, id, 'workflow_failed', ports);
    const again = await refundUndelivered(SUB, id, 'undelivered', ports);
    expect(ledger.balance(SUB)).toBe(9);
    expect(again.closedAt).toBe(first.closedAt);
    expect(stored().creditsRefunded).toBe(5);
    expect(ledger.ledgerSum(SUB)).toBe(ledger.balance(SUB));
  });

  it('refunds 2 credits a slot at high resolution', async () => {
    const generations = new FakeGenerations();
    const ledger = new FakeLedger();
    ledger.seedUser(SUB, 12);
    const { id } = generations.seed({ creditsReserved: 12, resolution: 'high', slots: saved(0, 1, 2, 3) });
    await ledger.spendCredits({ sub: SUB, amount: 12, ref: id });
    const closed = await refundUndelivered(SUB, id, 'undelivered', compensationPortsOf(generations, ledger));
    expect(closed.creditsRefunded).toBe(4);
    expect(ledger.balance(SUB)).toBe(4);
  });

  it("refunds a regeneration's one slot", async () => {
    const { ports, id, ledger } = world({ slotCount: 1, creditsReserved: 1, regeneratedFrom: 'headshot-9' });
    expect((await refundUndelivered(SUB, id, 'workflow_failed', ports)).creditsRefunded).toBe(1);
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('fails for a generation that does not exist, refunding nothing', async () => {
    const { ports, ledger } = world();
    await expect(
      refundUndelivered(SUB, '01KDWYDY00ZZZZZZZZZZZZZZZZ', 'workflow_failed', ports),
    ).rejects.toBeInstanceOf(GenerationNotFoundError);
    expect(ledger.entriesOf(SUB, 'refund')).toEqual([]);
  });

  it('leaves a refund that failed half-way for the retry to finish, never paying a slot twice', async () => {
    const { ports, id, ledger, stored } = world();
    const flaky = { ...ports, refundCredits: failingFirst(1, new Error('table down'), ports.refundCredits) };
    await expect(refundUndelivered(SUB, id, 'workflow_failed', flaky)).rejects.toThrow('table down');
    expect(stored().closedAt).toBeDefined();
    expect(stored().creditsRefunded).toBe(0);
    await refundUndelivered(SUB, id, 'workflow_failed', flaky);
    expect(ledger.balance(SUB)).toBe(10);
    expect(stored().creditsRefunded).toBe(6);
  });
});

describe('finalizeGeneration', () => {
  it('ends a generation with every headshot succeeded, refunding nothing', async () => {
    const { ports, id, ledger } = world({ slots: saved(0, 1, 2, 3, 4, 5) });
    const done = await finalizeGeneration(SUB, id, ports);
    expect(done).toMatchObject({ status: 'succeeded', stage: 'done', progress: 100, creditsRefunded: 0 });
    expect(ledger.balance(SUB)).toBe(4);
  });

  it('ends one with some headshots partial and refunds the rest', async () => {
    const { ports, id, ledger, stored } = world({ slots: saved(0, 2) });
    const done = await finalizeGeneration(SUB, id, ports);
    expect(done).toMatchObject({ status: 'partial', creditsRefunded: 4 });
    expect(done.error).toBeUndefined();
    expect(stored()).toMatchObject({ status: 'partial', completedAt: done.completedAt });
    expect(ledger.balance(SUB)).toBe(8);
  });

  it('says why a partial generation the likeness cap stopped ended early', async () => {
    const { ports, id } = world({ slots: saved(0), likenessStop: 'mismatch' });
    const done = await finalizeGeneration(SUB, id, ports);
    expect(done.error).toEqual(likenessStopError('mismatch', 1, 6));
  });

  it('throws NoHeadshotsError when no slot delivered, with every credit already back', async () => {
    const { ports, id, ledger, stored } = world();
    await expect(finalizeGeneration(SUB, id, ports)).rejects.toBeInstanceOf(NoHeadshotsError);
    expect(ledger.balance(SUB)).toBe(10);
    expect(stored().status).toBe('running');
  });

  it('leaves a generation that already ended as it is', async () => {
    const { ports, id, ledger } = world({ status: 'failed', slots: {} });
    expect((await finalizeGeneration(SUB, id, ports)).status).toBe('failed');
    expect(ledger.entriesOf(SUB, 'refund')).toEqual([]);
  });
});

describe('compensateGeneration', () => {
  const error = { code: 'TIMED_OUT' as const, message: GENERATION_ERROR_MESSAGES.TIMED_OUT };

  it('refunds every undelivered slot and marks the generation failed with the error', async () => {
    const { ports, id, ledger, stored } = world();
    await compensateGeneration(SUB, id, error, ports);
    expect(stored()).toMatchObject({ status: 'failed', stage: 'failed', error, creditsRefunded: 6 });
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('keeps the headshots already saved: partial, refunding the rest; repeating it changes nothing', async () => {
    const { ports, id, ledger, stored } = world({ slots: saved(4) });
    await compensateGeneration(SUB, id, error, ports);
    await compensateGeneration(SUB, id, error, ports);
    expect(stored()).toMatchObject({ status: 'partial', error, creditsRefunded: 5 });
    expect(ledger.balance(SUB)).toBe(9);
  });

  it('fails for a generation that does not exist', async () => {
    const { ports } = world();
    await expect(
      compensateGeneration(SUB, '01KDWYDY00ZZZZZZZZZZZZZZZZ', error, ports),
    ).rejects.toBeInstanceOf(GenerationNotFoundError);
  });
});

describe('markGenerationFailed', () => {
  it("shows a user-facing failure's own message", async () => {
    const { ports, id } = world();
    const message = 'None of your photos could be used: photo 1 has no face we could find.';
    const cause = JSON.stringify({ errorType: 'NoUsablePhotosError', errorMessage: message });
    const failed = await markGenerationFailed(SUB, id, { Error: 'NoUsablePhotosError', Cause: cause }, ports);
    expect(failed).toEqual({ status: 'failed', error: { code: 'NO_USABLE_PHOTOS', message } });
  });

  it('shows a generic message for any other failure, never its internals', async () => {
    const { ports, id, stored } = world({ slots: saved(0) });
    const failed = await markGenerationFailed(
      SUB,
      id,
      { Error: 'TypeError', Cause: 'x is undefined' },
      ports,
    );
    expect(failed).toEqual({
      status: 'partial',
      error: { code: 'GENERATION_FAILED', message: GENERATION_ERROR_MESSAGES.GENERATION_FAILED },
    });
    expect(JSON.stringify(stored().error)).not.toContain('undefined');
  });

  it("gives a generation the likeness cap stopped the cap's message", async () => {
    const { ports, id } = world({ likenessStop: 'limit' });
    const failed = await markGenerationFailed(SUB, id, { Error: 'NoHeadshotsError' }, ports);
    expect(failed.error).toEqual(likenessStopError('limit', 0, 6));
  });

  it('says a one-slot generation (an edit, a regeneration) whose headshot failed the likeness check was refused for it', async () => {
    const { ports, id } = world({
      slotCount: 1,
      creditsReserved: 1,
      likenessRejections: new Set(['0.0', '0.1']),
    });
    const failed = await markGenerationFailed(SUB, id, { Error: 'NoHeadshotsError' }, ports);
    expect(failed.error).toEqual(likenessRefusedError(1));
    expect(failed.error.code).toBe('LIKENESS_MISMATCH');
    expect(failed.error.message).toBe(
      "This headshot didn't look enough like you, so it was not delivered. 1 credit has been refunded.",
    );
  });

  it('keeps the image service failure of a generation whose slots were not all refused for likeness', async () => {
    const { ports, id } = world({ likenessRejections: new Set(['0.0', '1.0']) });
    const failed = await markGenerationFailed(SUB, id, { Error: 'NoHeadshotsError' }, ports);
    expect(failed.error.code).toBe('PROVIDER_FAILED');
    expect(refusedForLikeness(['0.0', '1.0'], 2)).toBe(true);
    expect(refusedForLikeness(undefined, 1)).toBe(false);
  });

  it('keeps the status and error of a generation that already ended', async () => {
    const error = { code: 'TIMED_OUT' as const, message: GENERATION_ERROR_MESSAGES.TIMED_OUT };
    const { ports, id } = world({ status: 'failed', stage: 'failed', error });
    expect(await markGenerationFailed(SUB, id, undefined, ports)).toEqual({ status: 'failed', error });
  });

  it('fails for a generation that does not exist', async () => {
    const { ports } = world();
    await expect(
      markGenerationFailed(SUB, '01KDWYDY00ZZZZZZZZZZZZZZZZ', undefined, ports),
    ).rejects.toBeInstanceOf(GenerationNotFoundError);
  });
});
