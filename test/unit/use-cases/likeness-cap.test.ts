import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { decideAfterCall, enforceLikenessCapAtStart } from '../../../functions/use-cases/likeness-cap';
import { PhotosDontMatchError } from '../../../functions/domain/likeness-cap';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { FakeLikenessCap } from './fakes/likeness-cap';

const sub = 'customer-1';
const hash = 'a'.repeat(32);

function setup() {
  const cap = new FakeLikenessCap();
  const now = Date.now();
  return { cap, now, generationId: ulid(now) };
}

describe('enforceLikenessCapAtStart: before a generation spends anything', () => {
  it("sets the day's allowance from the credits paid for: two calls per credit", async () => {
    const { cap, now } = setup();
    await enforceLikenessCapAtStart(sub, 6, hash, now, cap.ports);
    expect(cap.dayOf(sub, ulid(now))).toEqual({ allowance: 12, calls: 0 });
  });

  it('gives a credit refunded and spent again no new calls', async () => {
    const { cap, now } = setup();
    const earlier = ulid(now - 1);
    // 6 paid for today: 6 spent on an earlier generation today, 1 of them refunded; 1 left.
    cap.ledger.set(sub, [
      { delta: -6, reason: 'generation', ref: earlier },
      { delta: 1, reason: 'refund', ref: `${earlier}#slot-3` },
    ]);
    await enforceLikenessCapAtStart(sub, 1, hash, now, cap.ports);
    expect(cap.dayOf(sub, ulid(now)).allowance).toBe(12);
  });

  it('refuses photos whose headshots kept failing, before setting any allowance', async () => {
    const { cap, now } = setup();
    cap.failedSets.set(`${sub}|${hash}`, Math.floor(now / 1000) + 60);
    await expect(enforceLikenessCapAtStart(sub, 6, hash, now, cap.ports)).rejects.toThrow(
      PhotosDontMatchError,
    );
    expect(cap.counters.size).toBe(0);
  });

  it('accepts the same photos again once their marker expired', async () => {
    const { cap, now } = setup();
    cap.failedSets.set(`${sub}|${hash}`, Math.floor(now / 1000) - 1);
    await expect(enforceLikenessCapAtStart(sub, 6, hash, now, cap.ports)).resolves.toBeUndefined();
  });

  it("refuses the start when the day's calls are used up (429 likeness-attempts, retry at the day's end)", async () => {
    const { cap, now } = setup();
    cap.dayOf(sub, ulid(now)).calls = 12;
    const refused = await enforceLikenessCapAtStart(sub, 6, hash, now, cap.ports).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused).toMatchObject({ quota: 'likeness-attempts' });
    await expect(enforceLikenessCapAtStart(sub, 0, hash, now, cap.ports)).rejects.toThrow(QuotaExceededError);
  });

  it('fails when the ledger cannot be read, setting nothing', async () => {
    const { cap, now } = setup();
    const ports = { ...cap.ports, ledgerSince: failing(new Error('table down')) };
    await expect(enforceLikenessCapAtStart(sub, 6, hash, now, ports)).rejects.toThrow('table down');
    expect(cap.counters.size).toBe(0);
  });
});

describe('decideAfterCall: after the call', () => {
  const after = (generationId: string, outcome: string, retries = {}, slot = 0) => ({
    sub,
    generationId,
    slot,
    outcome,
    retries,
  });

  it("gives back a call the provider did not bill, and keeps a billed one in the day's count", async () => {
    const { cap, generationId } = setup();
    cap.dayOf(sub, generationId).calls = 3;
    for (const unbilled of ['throttled', 'ProviderUnavailableError', 'ProviderRejectedError'])
      await decideAfterCall(after(generationId, unbilled), cap.ports);
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
    // Never below zero.
    await decideAfterCall(after(generationId, 'throttled'), cap.ports);
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
    cap.dayOf(sub, generationId).calls = 1;
    for (const billed of ['saved', 'ProviderTimeoutError', 'ProviderInvalidOutputError'])
      await decideAfterCall(after(generationId, billed), cap.ports);
    expect(cap.dayOf(sub, generationId).calls).toBe(1);
  });

  it('retries a first failed likeness check, counting it', async () => {
    const { cap, generationId } = setup();
    const decision = await decideAfterCall(after(generationId, 'LikenessRejected'), cap.ports);
    expect(decision).toEqual({ next: 'acquire', retries: { LikenessRejected: 1 }, error: null });
    expect(cap.rejections.get(generationId)?.size).toBe(1);
  });

  it('counts a repeated task once', async () => {
    const { cap, generationId } = setup();
    await decideAfterCall(after(generationId, 'LikenessRejected', {}, 2), cap.ports);
    await decideAfterCall(after(generationId, 'LikenessRejected', {}, 2), cap.ports);
    expect(cap.rejections.get(generationId)?.size).toBe(1);
    expect(cap.stops.size).toBe(0);
  });

  it('stops the generation at its third failed check and remembers its photos', async () => {
    const { cap, generationId } = setup();
    cap.setHashes.set(generationId, hash);
    await decideAfterCall(after(generationId, 'LikenessRejected', {}, 0), cap.ports);
    await decideAfterCall(after(generationId, 'LikenessRejected', {}, 1), cap.ports);
    const third = await decideAfterCall(after(generationId, 'LikenessRejected', {}, 2), cap.ports);
    expect(third).toEqual({ next: 'fail', retries: {}, error: 'LikenessRejected' });
    expect(cap.stops.get(generationId)).toBe('mismatch');
    expect(await cap.ports.isReferenceSetFailed(sub, hash)).toBe(true);
  });

  it('stops a generation without a reference set hash (older items) without marking any photos', async () => {
    const { cap, generationId } = setup();
    for (const slot of [0, 1, 2])
      await decideAfterCall(after(generationId, 'LikenessRejected', {}, slot), cap.ports);
    expect(cap.stops.get(generationId)).toBe('mismatch');
    expect(cap.failedSets.size).toBe(0);
  });

  it('fails when the rejection cannot be recorded, stopping nothing', async () => {
    const { cap, generationId } = setup();
    const ports = { ...cap.ports, recordLikenessRejection: failing() };
    await expect(decideAfterCall(after(generationId, 'LikenessRejected'), ports)).rejects.toThrow(
      'port down',
    );
    expect(cap.stops.size).toBe(0);
  });

  it('fails when the unbilled call cannot be given back', async () => {
    const { cap, generationId } = setup();
    const ports = { ...cap.ports, returnProviderCall: failing() };
    await expect(decideAfterCall(after(generationId, 'throttled'), ports)).rejects.toThrow('port down');
  });
});
