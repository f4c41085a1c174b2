import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { assertSlotMayQueue, countProviderCall } from '../../../functions/use-cases/likeness-cap-before-call';
import { LikenessStoppedError, ProviderCallCapError } from '../../../functions/domain/likeness-cap';
import { failing } from './fakes/failures';
import { FakeLikenessCap } from './fakes/likeness-cap';

const sub = 'customer-1';

function setup() {
  const cap = new FakeLikenessCap();
  return { cap, generationId: ulid() };
}

describe('assertSlotMayQueue: before a slot is enqueued', () => {
  it('lets a slot of a running generation with calls left through', async () => {
    const { cap, generationId } = setup();
    cap.dayOf(sub, generationId).allowance = 2;
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).resolves.toBeUndefined();
    expect(cap.stops.size).toBe(0);
  });

  it('ends a slot of a generation stopped for failing photos', async () => {
    const { cap, generationId } = setup();
    cap.stops.set(generationId, 'mismatch');
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).rejects.toThrow(LikenessStoppedError);
    expect(cap.stops.get(generationId)).toBe('mismatch');
  });

  it('ends a slot of a generation the provider kept refusing, whatever the day allows', async () => {
    const { cap, generationId } = setup();
    cap.dayOf(sub, generationId).allowance = 12;
    cap.stops.set(generationId, 'refused');
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).rejects.toThrow(
      new LikenessStoppedError(`Generation ${generationId} stopped: the provider kept refusing its calls`),
    );
    await expect(
      countProviderCall({ id: generationId, userId: sub, likenessStop: 'refused' }, cap.ports),
    ).rejects.toThrow(LikenessStoppedError);
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
  });

  it("ends a slot when the day's calls are used up, and stops the generation for that reason", async () => {
    const { cap, generationId } = setup();
    Object.assign(cap.dayOf(sub, generationId), { allowance: 2, calls: 2 });
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).rejects.toThrow(ProviderCallCapError);
    expect(cap.stops.get(generationId)).toBe('limit');
    // Its message names the generation, never the account's sub (it reaches the execution history and the logs).
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).rejects.not.toThrow(sub);
    // A generation stopped for the limit keeps refusing its slots the same way.
    await expect(assertSlotMayQueue(sub, generationId, cap.ports)).rejects.toThrow(ProviderCallCapError);
  });

  it('fails when the stop cannot be read', async () => {
    const { cap, generationId } = setup();
    const ports = { ...cap.ports, generationStop: failing() };
    await expect(assertSlotMayQueue(sub, generationId, ports)).rejects.toThrow('port down');
  });
});

describe('countProviderCall: right before the call', () => {
  it("counts the call against the day's allowance, and refuses the one past it", async () => {
    const { cap, generationId } = setup();
    cap.dayOf(sub, generationId).allowance = 2;
    const generation = { id: generationId, userId: sub };
    await countProviderCall(generation, cap.ports);
    await countProviderCall(generation, cap.ports);
    await expect(countProviderCall(generation, cap.ports)).rejects.toThrow(ProviderCallCapError);
    expect(cap.dayOf(sub, generationId).calls).toBe(2);
    expect(cap.stops.get(generationId)).toBe('limit');
  });

  it('counts a call of a generation started before the cap existed (no allowance) and never refuses it', async () => {
    const { cap, generationId } = setup();
    for (let i = 0; i < 20; i++) await countProviderCall({ id: generationId, userId: sub }, cap.ports);
    expect(cap.dayOf(sub, generationId).calls).toBe(20);
  });

  it('makes no call for a stopped generation, and counts none', async () => {
    const { cap, generationId } = setup();
    const stopped = { id: generationId, userId: sub, likenessStop: 'mismatch' as const };
    await expect(countProviderCall(stopped, cap.ports)).rejects.toThrow(LikenessStoppedError);
    const limited = { ...stopped, likenessStop: 'limit' as const };
    await expect(countProviderCall(limited, cap.ports)).rejects.toThrow(ProviderCallCapError);
    expect(cap.dayOf(sub, generationId).calls).toBe(0);
  });

  it('fails when the counter cannot be written', async () => {
    const { cap, generationId } = setup();
    const ports = { ...cap.ports, reserveProviderCall: failing() };
    await expect(countProviderCall({ id: generationId, userId: sub }, ports)).rejects.toThrow('port down');
  });
});
