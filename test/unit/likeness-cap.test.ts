import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  attemptsUsedUp,
  creditsPaidForToday,
  dayWindowStart,
  generationStartMs,
  isUnbilledOutcome,
  likenessStopError,
  PhotosDontMatchError,
  providerCallAllowance,
  referenceSetHash,
  stopsGeneration,
  type LedgerDelta,
  type LikenessCapLimits,
} from '../../functions/domain/likeness-cap';
import { slotRefundRef } from '../../functions/domain/slots';
import { nextAfterCall, type RetryCounts } from '../../functions/domain/slot-outcomes';
import { errorResponse } from '../../functions/http/handler';
import { readyMail } from '../../functions/domain/ready-mail';

const limits: LikenessCapLimits = { callsPerCredit: 2, rejectionsToStop: 3, failedSetDays: 7 };
const at = (iso: string) => Date.parse(iso);
const idAt = (iso: string) => monotonicFactory()(at(iso));

describe('the day window of a generation', () => {
  it('is the UTC day its id (a ULID) was made in, even when it runs past midnight', () => {
    const id = idAt('2026-11-26T23:59:30Z');
    expect(generationStartMs(id)).toBe(at('2026-11-26T23:59:30Z'));
    expect(dayWindowStart(generationStartMs(id))).toBe(at('2026-11-26T00:00:00Z') / 1000);
    expect(dayWindowStart(at('2026-11-27T00:00:00Z'))).toBe(at('2026-11-27T00:00:00Z') / 1000);
  });
});

describe('credits paid for today', () => {
  const day = dayWindowStart(at('2026-11-26T12:00:00Z'));
  const spend = (id: string, n: number): LedgerDelta => ({ delta: -n, reason: 'generation', ref: id });
  const refund = (id: string, slot: number): LedgerDelta => ({
    delta: 1,
    reason: 'refund',
    ref: slotRefundRef(id, slot),
  });

  it('is the 6 sign-up credits of a free account whatever it spends and gets back', () => {
    const first = idAt('2026-11-26T09:00:00Z');
    const second = idAt('2026-11-26T10:00:00Z');
    const entries = [spend(first, 6), ...[0, 1, 2, 3, 4, 5].map((s) => refund(first, s)), spend(second, 6)];
    // Before anything, after the first spend, after its refunds, after the second spend: always 6.
    expect(creditsPaidForToday(6, [], day)).toBe(6);
    expect(creditsPaidForToday(0, entries.slice(0, 1), day)).toBe(6);
    expect(creditsPaidForToday(6, entries.slice(0, 7), day)).toBe(6);
    expect(creditsPaidForToday(0, entries, day)).toBe(6);
  });

  it("adds the day's purchases and takes reversals off (they are not spends or refunds)", () => {
    const id = idAt('2026-11-26T09:00:00Z');
    const entries: LedgerDelta[] = [
      spend(id, 6),
      { delta: 40, reason: 'purchase', ref: 'cs_test_1' },
      { delta: -10, reason: 'reversal', ref: 'pi_1' },
    ];
    expect(creditsPaidForToday(30, entries, day)).toBe(36);
  });

  it("counts yesterday's generation refunded today as credits the day began with", () => {
    const yesterday = idAt('2026-11-25T23:58:00Z');
    // Spent yesterday (balance 0 at midnight), refunded after midnight: 6 credits to spend today.
    expect(
      creditsPaidForToday(
        6,
        [refund(yesterday, 0), ...[1, 2, 3, 4, 5].map((s) => refund(yesterday, s))],
        day,
      ),
    ).toBe(6);
  });

  it('never goes negative, and ignores refs that are not generation ids', () => {
    expect(
      creditsPaidForToday(0, [{ delta: 5, reason: 'refund', ref: idAt('2026-11-26T01:00:00Z') }], day),
    ).toBe(0);
    expect(creditsPaidForToday(3, [{ delta: -3, reason: 'generation', ref: 'not-a-ulid' }], day)).toBe(3);
  });

  it('buys callsPerCredit calls per credit', () => {
    expect(providerCallAllowance(6, limits)).toBe(12);
    expect(providerCallAllowance(0, limits)).toBe(0);
    expect(providerCallAllowance(6, { ...limits, callsPerCredit: 1 })).toBe(6);
  });
});

describe('which calls stay counted', () => {
  it('gives back the calls the provider did not bill and the image we lost, never one that made an image', () => {
    for (const outcome of [
      'throttled',
      'ProviderUnavailableError',
      'ProviderRejectedError',
      'ProviderImageMissingError',
    ])
      expect(isUnbilledOutcome(outcome), outcome).toBe(true);
    for (const outcome of [
      'saved',
      'LikenessRejected',
      'ProviderInvalidOutputError',
      'ProviderTimeoutError',
      'LikenessStopped',
      'ProviderCallCapReached',
      'GenerationClosedError',
    ])
      expect(isUnbilledOutcome(outcome), outcome).toBe(false);
  });

  it('never retries a slot the cap refused', () => {
    expect(nextAfterCall('LikenessStopped', {})).toEqual({
      next: 'fail',
      retries: {},
      error: 'LikenessStopped',
    });
    expect(nextAfterCall('ProviderCallCapReached', {}).next).toBe('fail');
  });
});

describe('a reference set whose headshots keep failing', () => {
  it('stops its generation at the third failed likeness check (by default)', () => {
    expect(stopsGeneration(2, limits)).toBe(false);
    expect(stopsGeneration(3, limits)).toBe(true);
    expect(stopsGeneration(1, { ...limits, rejectionsToStop: 1 })).toBe(true);
  });

  it('is the same set for the same photos (their contents) uploaded again or in another order, another for others', () => {
    const [first, second] = ['a', 'b'].map((bytes) => createHash('sha256').update(bytes).digest('hex'));
    const a = referenceSetHash([first, second]);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(referenceSetHash([second!.toUpperCase(), first, first])).toBe(a);
    expect(referenceSetHash([first])).not.toBe(a);
    expect(() => referenceSetHash([first, undefined])).toThrow(RangeError);
    expect(() => referenceSetHash([first, ' '])).toThrow(RangeError);
  });
});

describe("the customer's messages", () => {
  it('say why, what came back, and ask for other photos', () => {
    expect(likenessStopError('mismatch', 0, 6)).toEqual({
      code: 'LIKENESS_MISMATCH',
      message:
        "Your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 6 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
    });
    expect(likenessStopError('mismatch', 5, 6).message).toMatch(
      /^Some of your headshots.* 1 credit has been refunded\./,
    );
    expect(likenessStopError('limit', 2, 6)).toMatchObject({
      code: 'LIKENESS_LIMIT',
      message: expect.stringContaining("today's headshot attempts are used up") as string,
    });
  });

  it('refuses a start with 409 PHOTOS_DONT_MATCH, or 429 until the end of the UTC day', () => {
    expect(errorResponse(new PhotosDontMatchError())).toMatchObject({
      statusCode: 409,
      body: expect.stringContaining('"code":"PHOTOS_DONT_MATCH"') as string,
    });
    const used = attemptsUsedUp(at('2026-11-26T19:00:00Z'));
    expect(used).toMatchObject({ quota: 'likeness-attempts', retryAfterSeconds: 5 * 3600 });
    expect(used.message).toBe(
      "You've used today's headshot attempts: your recent headshots didn't look enough like you. Please try again in 5 hours, with different photos.",
    );
  });
});

describe('the e-mail of a generation the cap stopped', () => {
  const mail = (status: 'failed' | 'partial', likenessStopped: boolean) =>
    readyMail({
      status,
      delivered: status === 'failed' ? 0 : 4,
      refunded: status === 'failed' ? 6 : 2,
      displayName: 'Ada',
      dashboardUrl: 'https://headshots.example.com/dashboard',
      likenessStopped,
    }).text;

  it('asks for other photos instead of inviting the same ones again', () => {
    expect(mail('failed', false)).toContain('so you can try again at no cost');
    expect(mail('failed', true)).not.toContain('try again at no cost');
    expect(mail('failed', true)).toContain('please upload 5-10 different photos');
    expect(mail('partial', true)).toContain('please upload 5-10 different photos');
    expect(mail('partial', false)).not.toContain('different photos');
  });
});

/**
 * The whole policy on one account and one day, as the workflow applies it: every provider call is counted against
 * the allowance first, a failed check is counted on its generation, a generation stops at the limit, and its photos
 * are refused afterwards. The provider never makes a headshot that looks like the customer.
 */
function farmOneDay(options: { balance: number; generations: number; newPhotosEachTime: boolean }) {
  const day = dayWindowStart(at('2026-11-26T08:00:00Z'));
  let balance = options.balance;
  const ledger: LedgerDelta[] = [];
  const failedSets = new Set<string>();
  let calls = 0;
  let refused = 0;
  for (let g = 0; g < options.generations; g++) {
    const set = options.newPhotosEachTime ? `set-${g}` : 'set-0';
    if (failedSets.has(set)) {
      refused++;
      continue;
    }
    const allowance = providerCallAllowance(creditsPaidForToday(balance, ledger, day), limits);
    if (calls >= allowance || balance < 6) {
      refused++;
      continue;
    }
    const id = idAt(`2026-11-26T${String(8 + g).padStart(2, '0')}:00:00Z`);
    balance -= 6;
    ledger.push({ delta: -6, reason: 'generation', ref: id });
    let rejections = 0;
    let stopped = false;
    // The worst order: the six first calls are all in flight before any answer, and a retry is called at once,
    // before the next answer is counted. Every headshot fails the likeness check.
    const retries: RetryCounts[] = Array.from({ length: 6 }, () => ({}));
    const call = () => {
      if (stopped || calls >= allowance) return false;
      calls++;
      return true;
    };
    const inFlight = [0, 1, 2, 3, 4, 5].filter(() => call());
    while (inFlight.length > 0) {
      const slot = inFlight.shift()!;
      rejections++;
      const decision = nextAfterCall('LikenessRejected', retries[slot]!);
      if (stopsGeneration(rejections, limits)) stopped = true;
      else if (decision.next === 'acquire') {
        retries[slot] = decision.retries;
        if (call()) inFlight.push(slot);
      }
    }
    for (let slot = 0; slot < 6; slot++)
      ledger.push({ delta: 1, reason: 'refund', ref: slotRefundRef(id, slot) });
    balance += 6;
    failedSets.add(set);
  }
  return { calls, refused, balance };
}

describe('worst case per account per day (docs/decisions/004-likeness-retry-cap.md)', () => {
  it('a free account replaying the same photos all day: one generation (6 calls + 2 retries), then refused', () => {
    expect(farmOneDay({ balance: 6, generations: 20, newPhotosEachTime: false })).toEqual({
      calls: 8,
      refused: 19,
      balance: 6,
    });
  });

  it('a free account with new photos every time: never more than 6 + 6 calls', () => {
    const { calls, balance } = farmOneDay({ balance: 6, generations: 20, newPhotosEachTime: true });
    expect(calls).toBeLessThanOrEqual(12);
    expect(calls).toBe(12);
    expect(balance).toBe(6);
  });

  it('an account holding 30 paid credits: never more than 30 + 30 calls', () => {
    const { calls } = farmOneDay({ balance: 30, generations: 50, newPhotosEachTime: true });
    expect(calls).toBeLessThanOrEqual(60);
  });
});
