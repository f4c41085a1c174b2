import { describe, expect, it } from 'vitest';
import { likenessStopError } from '../../functions/domain/likeness-cap';
import {
  PhotosRefusedError,
  refusalStopMessage,
  refusalsInWindow,
  refusalsUsedUp,
  safetyIdentifier,
  startsRefusedUntil,
  stopsForRefusals,
  type RefusalLimits,
} from '../../functions/domain/provider-refusals';
import { bonusKey } from '../../functions/domain/signup-bonus';

/* Refusals cost the refuser (domain/provider-refusals.ts, docs/decisions/018-provider-refusals.md). */

const T = 1_800_000_000_000;
const HOUR = 3_600_000;
const limits: RefusalLimits = {
  refusalsToStop: 3,
  accountRefusals: 6,
  windowMs: 24 * HOUR,
  setAsideMs: 7 * 24 * HOUR,
};

describe('the rolling window', () => {
  it('keeps the refusals of the last 24 hours, oldest first, whatever the calendar day', () => {
    const times = [T - 1_000, T - 25 * HOUR, T - 24 * HOUR, T - 24 * HOUR + 1, T + 1];
    expect(refusalsInWindow(times, T, limits)).toEqual([T - 24 * HOUR + 1, T - 1_000]);
  });

  it('refuses starts from the 6th refusal in the window until enough of them leave it', () => {
    const five = [1, 2, 3, 4, 5].map((h) => T - h * HOUR);
    expect(startsRefusedUntil(five, T, limits)).toBeUndefined();
    const six = [...five, T - 6 * HOUR];
    // The oldest leaves the window 18 hours from now: 5 are left, the account may start again.
    expect(startsRefusedUntil(six, T, limits)).toBe(T + 18 * HOUR);
    // Eight: the 3rd oldest must go too.
    expect(startsRefusedUntil([...six, T - 7 * HOUR, T - 8 * HOUR], T, limits)).toBe(T + 18 * HOUR);
    expect(startsRefusedUntil(six, T + 18 * HOUR, limits)).toBeUndefined();
  });
});

describe('stopping a generation', () => {
  it('at its 3rd refusal, or at its account’s 6th in the window', () => {
    expect(stopsForRefusals(2, 2, limits)).toBe(false);
    expect(stopsForRefusals(3, 3, limits)).toBe(true);
    expect(stopsForRefusals(1, 6, limits)).toBe(true);
    expect(stopsForRefusals(2, 5, limits)).toBe(false);
  });

  /**
   * The acceptance of issue 33, in the rules' terms: a free account (6 credits: one generation of 6 slots at a time)
   * whose every call is refused, starting again and again — with NEW photos each time (the set aside would refuse
   * the same photos at the 2nd start). In the worst case all 6 slots of a generation call before any refusal is
   * counted; the stop only ends the slots that have not called yet.
   */
  it('lets a free account refused on every call reach the provider at most 12 times, and refuses it by the 4th start', () => {
    for (const perGeneration of [3, 4, 5, 6]) {
      const times: number[] = [];
      let starts = 0;
      let refusedAt: number | undefined;
      for (let start = 1; start <= 10 && refusedAt === undefined; start++) {
        const now = T + start * 60_000;
        if (startsRefusedUntil(times, now, limits) !== undefined) {
          refusedAt = start;
          break;
        }
        starts++;
        // Its slots call until a counted refusal stops it (the 3rd), but those already admitted call anyway: 3 to
        // 6 calls, as the line's parallelism decides.
        for (let call = 0; call < perGeneration; call++) times.push(now);
        expect(stopsForRefusals(perGeneration, refusalsInWindow(times, now, limits).length, limits)).toBe(
          true,
        );
      }
      expect(times.length, `${perGeneration} calls a generation`).toBeLessThanOrEqual(12);
      expect(refusedAt, `${perGeneration} calls a generation`).toBeLessThanOrEqual(4);
      expect(starts).toBe((refusedAt ?? 0) - 1);
    }
  });
});

describe('what the customer is told', () => {
  it('says why a generation stopped, what was refunded, and asks for other photos', () => {
    expect(refusalStopMessage(0, 6)).toBe(
      'Our image service refused to make headshots from these photos, so we stopped. 6 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.',
    );
    expect(refusalStopMessage(5, 6)).toContain('1 credit has been refunded.');
    expect(likenessStopError('refused', 2, 6)).toEqual({
      code: 'PHOTOS_REFUSED',
      message: refusalStopMessage(2, 6),
    });
  });

  it('refuses photos set aside with 409 PHOTOS_REFUSED, and an account over its refusals with 429 and the wait', () => {
    expect(new PhotosRefusedError()).toMatchObject({
      name: 'PhotosRefusedError',
      message:
        "Our image service refused to make headshots from these photos, so we won't use them again. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
    });
    const error = refusalsUsedUp(T + 18 * HOUR - 30_000, T);
    expect(error).toMatchObject({
      name: 'QuotaExceededError',
      quota: 'provider-refusals',
      retryAfterSeconds: 18 * 3600 - 30,
      message:
        'Our image service refused too many of your recent requests. Please try again in 18 hours, with different photos.',
    });
    expect(refusalsUsedUp(T, T).retryAfterSeconds).toBe(1);
  });
});

describe('safetyIdentifier', () => {
  it('is a stable keyed hash of the caller: 64 hex characters, another for another caller or key', () => {
    const id = safetyIdentifier('sub-1', 'pepper');
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(safetyIdentifier('sub-1', 'pepper')).toBe(id);
    expect(safetyIdentifier('sub-2', 'pepper')).not.toBe(id);
    expect(safetyIdentifier('sub-1', 'other pepper')).not.toBe(id);
    expect(id).not.toContain('sub-1');
    // Its own purpose: never the sign-up bonus marker of the same text under the same key.
    expect(bonusKey('sub-1', 'pepper')).not.toBe(id);
  });

  it('refuses an empty key (a plain hash of a sub could be matched by anyone who knows it)', () => {
    expect(() => safetyIdentifier('sub-1', '')).toThrow('empty');
  });
});
