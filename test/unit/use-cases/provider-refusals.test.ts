import { describe, expect, it } from 'vitest';
import { PhotosRefusedError } from '../../../functions/domain/provider-refusals';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import {
  countProviderRefusal,
  enforceRefusalCapAtStart,
} from '../../../functions/use-cases/provider-refusals';
import { failing } from './fakes/failures';
import { FakeProviderRefusals } from './fakes/provider-refusals';

const SUB = 'customer-1';
const HASH = 'a'.repeat(32);
const T = 1_800_000_000_000;
const HOUR = 3_600_000;

/** A generation of `SUB` with its photo set, and the refusals' items in memory. */
function world(generationId = '01JREFUSED0000000000000000') {
  const refusals = new FakeProviderRefusals();
  refusals.setHashes.set(generationId, HASH);
  const refuse = (slot: number, call = 0, at = T) =>
    countProviderRefusal({ sub: SUB, generationId, slot, call }, at, refusals.ports);
  return { refusals, refuse, generationId };
}

describe('countProviderRefusal', () => {
  it('stops the generation at its 3rd refused call and sets its photos aside for 7 days', async () => {
    const { refusals, refuse, generationId } = world();
    expect(await refuse(0)).toBe(false);
    expect(await refuse(1)).toBe(false);
    expect(refusals.stops.has(generationId)).toBe(false);
    expect(await refuse(2)).toBe(true);
    expect(refusals.stops.get(generationId)).toBe('refused');
    expect(refusals.refusedSets.get(`${SUB}|${HASH}`)).toBe((T + 7 * 24 * HOUR) / 1000);
  });

  it('counts a repeated task once (the same slot and call)', async () => {
    const { refusals, refuse, generationId } = world();
    for (let n = 0; n < 3; n++) await refuse(0);
    await refuse(1);
    expect(refusals.stops.has(generationId)).toBe(false);
    expect(refusals.accountRefusals.get(SUB)?.size).toBe(2);
  });

  it('stops a generation at its account’s 6th refusal in 24 hours, without setting its own photos aside', async () => {
    const { refusals, refuse, generationId } = world();
    refusals.seedAccountRefusals(SUB, T - 23 * HOUR, 5);
    expect(await refuse(0)).toBe(true);
    expect(refusals.stops.get(generationId)).toBe('refused');
    expect(refusals.refusedSets.size).toBe(0);
  });

  it('does not count refusals older than the window', async () => {
    const { refusals, refuse } = world();
    refusals.seedAccountRefusals(SUB, T - 25 * HOUR, 5);
    expect(await refuse(0)).toBe(false);
  });

  it('stops an older generation without a photo set, setting nothing aside', async () => {
    const { refusals, refuse, generationId } = world();
    refusals.setHashes.delete(generationId);
    for (const slot of [0, 1, 2]) await refuse(slot);
    expect(refusals.stops.get(generationId)).toBe('refused');
    expect(refusals.refusedSets.size).toBe(0);
  });

  it('keeps the first stop reason (a generation stopped for likeness stays so)', async () => {
    const { refusals, refuse, generationId } = world();
    refusals.stops.set(generationId, 'mismatch');
    for (const slot of [0, 1, 2]) await refuse(slot);
    expect(refusals.stops.get(generationId)).toBe('mismatch');
  });

  it('fails when the refusal cannot be counted, stopping nothing (the task is retried)', async () => {
    const { refusals, generationId } = world();
    const ports = { ...refusals.ports, recordProviderRefusal: failing() };
    await expect(
      countProviderRefusal({ sub: SUB, generationId, slot: 0, call: 0 }, T, ports),
    ).rejects.toThrow('port down');
    expect(refusals.stops.size).toBe(0);
  });

  it('fails when the photo set cannot be set aside, after the stop (a retry counts the same call once)', async () => {
    const { refusals, refuse, generationId } = world();
    await refuse(0);
    await refuse(1);
    const ports = { ...refusals.ports, markPhotoSetRefused: failing() };
    await expect(
      countProviderRefusal({ sub: SUB, generationId, slot: 2, call: 0 }, T, ports),
    ).rejects.toThrow('port down');
    expect(refusals.stops.get(generationId)).toBe('refused');
    expect(await refuse(2)).toBe(true);
    expect(refusals.refusedSets.size).toBe(1);
  });
});

describe('enforceRefusalCapAtStart', () => {
  it('lets a start through with no refusals', async () => {
    const { refusals } = world();
    await expect(enforceRefusalCapAtStart(SUB, HASH, T, refusals.ports)).resolves.toBeUndefined();
  });

  it('refuses photos set aside (409), until the set-aside ends', async () => {
    const { refusals, refuse } = world();
    for (const slot of [0, 1, 2]) await refuse(slot);
    await expect(enforceRefusalCapAtStart(SUB, HASH, T + HOUR, refusals.ports)).rejects.toEqual(
      new PhotosRefusedError(),
    );
    await expect(enforceRefusalCapAtStart(SUB, 'b'.repeat(32), T + HOUR, refusals.ports)).resolves.toBe(
      undefined,
    );
    await expect(enforceRefusalCapAtStart(SUB, HASH, T + 7 * 24 * HOUR, refusals.ports)).resolves.toBe(
      undefined,
    );
  });

  it('refuses any start of an account with 6 refusals in 24 hours (429) until the oldest leaves the window', async () => {
    const { refusals } = world();
    refusals.seedAccountRefusals(SUB, T - 20 * HOUR, 6);
    const refused = enforceRefusalCapAtStart(SUB, 'c'.repeat(32), T, refusals.ports);
    await expect(refused).rejects.toBeInstanceOf(QuotaExceededError);
    await expect(refused).rejects.toMatchObject({ quota: 'provider-refusals', retryAfterSeconds: 4 * 3600 });
    await expect(enforceRefusalCapAtStart(SUB, 'c'.repeat(32), T + 4 * HOUR, refusals.ports)).resolves.toBe(
      undefined,
    );
    // Another account is not touched.
    await expect(enforceRefusalCapAtStart('customer-2', HASH, T, refusals.ports)).resolves.toBeUndefined();
  });

  it('fails when the refusals cannot be read', async () => {
    const { refusals } = world();
    await expect(
      enforceRefusalCapAtStart(SUB, HASH, T, { ...refusals.ports, accountRefusalTimes: failing() }),
    ).rejects.toThrow('port down');
  });
});
