import { describe, expect, it } from 'vitest';
import { initialQueueState, type QueueLimits } from '../../functions/domain/provider-queue';
import {
  MAX_ROUNDS,
  MIN_TOKEN_WAIT_MS,
  WAIT_BUDGET_MS,
  mayStartRound,
  oneTicketPerCall,
  splitByDeadline,
  tokenWaitMs,
  waitUntil,
} from '../../functions/domain/provider-queue-dispatch';

/* The dispatcher's decisions (domain/provider-queue-dispatch.ts); its rounds are use-cases/dispatch-provider-queue. */

const T = 1_800_000_000_000;
const limits: QueueLimits = {
  imagesPerMinute: 120,
  maxConcurrency: 10,
  leaseMs: 600_000,
  maxPauseMs: 60_000,
};
/** The bucket drained at T: the next token in 500 ms. */
const drained = { ...initialQueueState(limits, T), tokens: 0 };

describe("the dispatcher's budget", () => {
  it('waits for tokens at most 20 s, and never within 30 s of the timeout', () => {
    expect(waitUntil(T, 60_000)).toBe(T + WAIT_BUDGET_MS);
    expect(waitUntil(T, 45_000)).toBe(T + 15_000);
    expect(waitUntil(T, 10_000)).toBe(T);
  });

  it('always starts its first round, later ones only within the budget and the round limit', () => {
    expect(mayStartRound(0, T + 5_000, T)).toBe(true);
    expect(mayStartRound(1, T, T)).toBe(true);
    expect(mayStartRound(1, T + 1, T)).toBe(false);
    expect(mayStartRound(7, T + 999_999, undefined)).toBe(true);
    expect(mayStartRound(MAX_ROUNDS, T, T + 1_000)).toBe(false);
  });
});

describe("a batch's deadlines", () => {
  it('sets apart the tickets whose generation passed its deadline (at the deadline itself included)', () => {
    const tickets = [{ deadline: T - 1 }, { deadline: T }, { deadline: T + 1 }];
    expect(splitByDeadline(tickets, T)).toEqual({
      expired: [{ deadline: T - 1 }, { deadline: T }],
      live: [{ deadline: T + 1 }],
    });
  });
});

describe('waiting for the next token within the invocation', () => {
  const round = { waiting: true, admitted: 2, lostRace: false, until: T + WAIT_BUDGET_MS };

  it('waits when tickets wait, it admitted, won its races, and the token is due within the budget', () => {
    expect(tokenWaitMs(round, drained, limits, T)).toBe(500);
    expect(tokenWaitMs({ ...round, until: T + 500 }, drained, limits, T)).toBe(500);
  });

  it('does not wait otherwise', () => {
    expect(tokenWaitMs({ ...round, waiting: false }, drained, limits, T)).toBeUndefined();
    expect(tokenWaitMs({ ...round, admitted: 0 }, drained, limits, T)).toBeUndefined();
    expect(tokenWaitMs({ ...round, lostRace: true }, drained, limits, T)).toBeUndefined();
    expect(tokenWaitMs({ ...round, until: undefined }, drained, limits, T)).toBeUndefined();
    expect(tokenWaitMs({ ...round, until: T + 499 }, drained, limits, T)).toBeUndefined();
    // The permits, not the tokens, hold the queue: a release wakes the dispatcher.
    expect(tokenWaitMs(round, { ...drained, inFlight: 10 }, limits, T)).toBeUndefined();
  });

  it('never waits less than the shortest wait, whatever the limit', () => {
    const fastest = { ...limits, imagesPerMinute: 2_000 };
    expect(tokenWaitMs(round, { ...initialQueueState(fastest, T), tokens: 0.9 }, fastest, T)).toBe(
      MIN_TOKEN_WAIT_MS,
    );
  });
});

describe('oneTicketPerCall', () => {
  const ticket = (slot: number, call: number, enqueuedAt: number, generationId = '01JGEN') => ({
    generationId,
    slot,
    call,
    enqueuedAt,
  });

  it('keeps the ticket put last of each call, in the batch order, and names the older ones', () => {
    const older = ticket(0, 0, T - 2_000);
    const newer = ticket(0, 0, T - 1_000);
    const other = ticket(1, 0, T - 3_000);
    expect(oneTicketPerCall([newer, other, older])).toEqual({ unique: [newer, other], duplicates: [older] });
    expect(oneTicketPerCall([older, other, newer])).toEqual({ unique: [other, newer], duplicates: [older] });
  });

  it('tells calls apart by generation, slot and call number', () => {
    const batch = [ticket(0, 0, T), ticket(0, 1, T), ticket(1, 0, T), ticket(0, 0, T, '01JOTHER')];
    expect(oneTicketPerCall(batch)).toEqual({ unique: batch, duplicates: [] });
  });

  it('keeps the first of two tickets put at the same ms', () => {
    const a = ticket(2, 0, T);
    const b = ticket(2, 0, T);
    const { unique, duplicates } = oneTicketPerCall([a, b]);
    expect(unique[0]).toBe(a);
    expect(duplicates[0]).toBe(b);
  });
});
