import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  releaseProviderSlot,
  type ReleaseProviderSlotPorts,
  type SlotRelease,
} from '../../../functions/use-cases/release-provider-slot';
import { decideAfterCall } from '../../../functions/use-cases/likeness-cap';
import { countProviderRefusal } from '../../../functions/use-cases/provider-refusals';
import { DEFAULT_THROTTLE_MS } from '../../../functions/domain/provider-queue';
import { leaseId } from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { FakeLikenessCap } from './fakes/likeness-cap';
import { FakeProviderQueue } from './fakes/provider-queue';
import { FakeProviderRefusals } from './fakes/provider-refusals';

const sub = 'customer-1';

/** A slot holding its lease since 40 s ago, in a generation that started a minute ago (deadline: 30 min). */
function setup() {
  const queue = new FakeProviderQueue();
  const cap = new FakeLikenessCap();
  // Both write the generation's stop: one map, as one attribute of one item.
  const refusals = new FakeProviderRefusals(cap.stops);
  const generationId = ulid(queue.now - 60_000);
  const lease = leaseId({ generationId, slot: 1, call: 0 });
  queue.leases.set(lease, { taskToken: 't', grantedAt: queue.now - 40_000, leaseUntil: queue.now + 600_000 });
  queue.stored = { ...queue.state(), inFlight: 1 };
  const ports: ReleaseProviderSlotPorts = {
    releaseLease: queue.releaseLease,
    wakeDispatcher: queue.wakeDispatcher,
    decideAfterCall: (call) => decideAfterCall(call, cap.ports),
    countProviderRefusal: (refused) => countProviderRefusal(refused, queue.now, refusals.ports),
    deadlineMs: queue.deadlineMs,
  };
  const release = (call: SlotRelease['call'], retries = {}): SlotRelease => ({
    generationId,
    userId: sub,
    slot: 1,
    leaseId: lease,
    call,
    retries,
    calls: 0,
    startedAt: new Date(queue.now - 60_000).toISOString(),
  });
  return { queue, cap, refusals, ports, release, generationId, lease };
}

describe('releaseProviderSlot: after a provider call', () => {
  it('deletes the lease of a saved headshot whose permit came back already, and wakes nobody', async () => {
    const { queue, ports, release, lease } = setup();
    await queue.returnPermit(lease);
    const result = await releaseProviderSlot(
      release({ outcome: 'saved', headshotId: 'h1', retryAfterMs: null }),
      queue.now,
      ports,
    );

    expect(result).toEqual({ next: 'done', retries: {}, error: null, calls: 1, waitSeconds: 29 * 60 });
    expect(queue.leases.size).toBe(0);
    expect(queue.state().inFlight).toBe(0);
    expect(queue.wakeUps).toEqual([]);
  });

  it('gives back the permit of a failed call, measures it, and wakes the dispatcher', async () => {
    const { queue, ports, release } = setup();
    const result = await releaseProviderSlot(release({ Error: 'ProviderTimeoutError' }), queue.now, ports);

    expect(result).toMatchObject({ next: 'acquire', retries: { ProviderTimeoutError: 1 }, calls: 1 });
    expect(queue.state()).toMatchObject({ inFlight: 0, calls: 1, callMsSum: 40_000 });
    expect(queue.wakeUps).toEqual([{ reason: 'release', delaySeconds: 0 }]);
  });

  it("pauses admissions after a 429 for the provider's wait, puts the slot back, and returns the unbilled call", async () => {
    const { queue, cap, ports, release, generationId } = setup();
    cap.dayOf(sub, generationId).calls = 1;
    const result = await releaseProviderSlot(
      release({ outcome: 'throttled', headshotId: null, retryAfterMs: 5_000 }),
      queue.now,
      ports,
    );

    expect(result.next).toBe('acquire');
    expect(queue.state()).toMatchObject({ pausedUntil: queue.now + 5_000, inFlight: 0, calls: 0 });
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
    expect(queue.wakeUps).toEqual([{ reason: 'release', delaySeconds: 0 }]);
  });

  it('pauses for the default wait when the 429 named none, even once the lease is gone', async () => {
    const { queue, ports, release, lease } = setup();
    queue.leases.delete(lease);
    await releaseProviderSlot(
      release({ outcome: 'throttled', headshotId: null, retryAfterMs: null }),
      queue.now,
      ports,
    );
    expect(queue.state().pausedUntil).toBe(queue.now + DEFAULT_THROTTLE_MS);
    expect(queue.wakeUps).toHaveLength(1);
  });

  it('gives a slot up after its retries, the likeness cap stopping the generation at its third failed check', async () => {
    const { queue, cap, ports, release, generationId } = setup();
    cap.rejections.set(generationId, new Set(['0.0', '2.0']));
    const result = await releaseProviderSlot(release({ Error: 'LikenessRejected' }), queue.now, ports);
    expect(result).toMatchObject({ next: 'fail', error: 'LikenessRejected' });
    expect(cap.stops.get(generationId)).toBe('mismatch');
  });

  it('puts a slot whose provider image went missing back in line once, the call not charged (decision 022)', async () => {
    const { queue, cap, refusals, ports, release, generationId, lease } = setup();
    // CallProvider stored the image, gave the permit back and counted the call; FinishHeadshot then found no image.
    await queue.returnPermit(lease);
    cap.dayOf(sub, generationId).calls = 1;
    const missing = { Error: 'ProviderImageMissingError', Cause: 'No provider image at work/...' };
    const result = await releaseProviderSlot(release(missing), queue.now, ports);

    expect(result).toEqual({
      next: 'acquire',
      retries: { ProviderImageMissingError: 1 },
      error: null,
      calls: 1,
      waitSeconds: 29 * 60,
    });
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
    expect(cap.rejections.size).toBe(0);
    expect(cap.stops.has(generationId)).toBe(false);
    expect(refusals.accountRefusals.has(sub)).toBe(false);
    expect(queue.leases.size).toBe(0);
  });

  it('refunds a slot whose provider image went missing again after its one more call, the call still not charged', async () => {
    const { queue, cap, ports, release, generationId } = setup();
    cap.dayOf(sub, generationId).calls = 2;
    const again = {
      ...release({ Error: 'ProviderImageMissingError' }, { ProviderImageMissingError: 1 }),
      calls: 1,
    };
    const result = await releaseProviderSlot(again, queue.now, ports);

    expect(result).toMatchObject({
      next: 'fail',
      error: 'ProviderImageMissingError',
      retries: { ProviderImageMissingError: 1 },
      calls: 2,
    });
    expect(cap.dayOf(sub, generationId).calls).toBe(1);
    expect(cap.stops.has(generationId)).toBe(false);
  });

  it('counts the calls and bounds the next wait in the queue by the deadline', async () => {
    const { queue, ports, release } = setup();
    const late = { ...release({ Error: 'ProviderUnavailableError' }), calls: 2 };
    const result = await releaseProviderSlot(late, queue.now + 29 * 60_000 + 500, ports);
    expect(result).toMatchObject({ calls: 3, waitSeconds: 1 });
  });

  it('is safe to run again: the second release gives nothing back and wakes nobody', async () => {
    const { queue, ports, release } = setup();
    await releaseProviderSlot(release({ Error: 'ProviderRejectedError' }), queue.now, ports);
    await releaseProviderSlot(release({ Error: 'ProviderRejectedError' }), queue.now, ports);
    expect(queue.state().inFlight).toBe(0);
    expect(queue.wakeUps).toHaveLength(1);
  });

  it('fails a refused call at once, counts it against its generation and account, and stops the generation at the third', async () => {
    const { queue, cap, refusals, ports, release, generationId } = setup();
    const refused = (slot: number) => ({ ...release({ Error: 'ProviderRejectedError' }), slot, calls: slot });
    for (const slot of [0, 1]) {
      const result = await releaseProviderSlot(refused(slot), queue.now, ports);
      expect(result).toMatchObject({ next: 'fail', error: 'ProviderRejectedError' });
    }
    expect(cap.stops.has(generationId)).toBe(false);
    await releaseProviderSlot(refused(2), queue.now, ports);
    expect(cap.stops.get(generationId)).toBe('refused');
    expect(refusals.generationRefusals.get(generationId)).toEqual(new Set(['0.0', '1.1', '2.2']));
    expect(refusals.accountRefusals.get(sub)?.size).toBe(3);
  });

  it('counts no refusal for any other failure', async () => {
    const { queue, refusals, ports, release } = setup();
    for (const Error of ['ProviderUnavailableError', 'ProviderInvalidOutputError', 'LikenessRejected']) {
      await releaseProviderSlot(release({ Error }), queue.now, ports);
    }
    expect(refusals.generationRefusals.size).toBe(0);
  });

  it('fails when a refusal cannot be counted, the lease already given back (the task is retried)', async () => {
    const { queue, ports, release } = setup();
    const broken = { ...ports, countProviderRefusal: failing() };
    await expect(
      releaseProviderSlot(release({ Error: 'ProviderRejectedError' }), queue.now, broken),
    ).rejects.toThrow('port down');
    expect(queue.leases.size).toBe(0);
  });

  it('fails when the lease cannot be given back, deciding nothing', async () => {
    const { cap, queue, ports, release, generationId } = setup();
    cap.dayOf(sub, generationId).calls = 1;
    const broken = { ...ports, releaseLease: failing() };
    await expect(
      releaseProviderSlot(
        release({ outcome: 'throttled', headshotId: null, retryAfterMs: 1 }),
        queue.now,
        broken,
      ),
    ).rejects.toThrow('port down');
    expect(cap.dayOf(sub, generationId).calls).toBe(1);
  });

  it('fails when the likeness cap cannot decide, the lease already given back', async () => {
    const { queue, ports, release } = setup();
    const broken = { ...ports, decideAfterCall: failing() };
    await expect(
      releaseProviderSlot(release({ Error: 'LikenessRejected' }), queue.now, broken),
    ).rejects.toThrow('port down');
    expect(queue.leases.size).toBe(0);
  });
});
