import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  getUser,
  grantCredits,
  listLedger,
  refundCredits,
  spendCredits,
} from '../../functions/adapters/ledger';
import { ensureUser } from '../../functions/adapters/user-creation';
import { InsufficientCreditsError, UserNotFoundError } from '../../functions/domain/credits';
import { expectLedgerBalanced } from '../helpers/ledger';

const newSub = () => randomUUID();

describe('credit ledger on DynamoDB Local', () => {
  it('creates a user with 6 credits and one signup_bonus entry, exactly once', async () => {
    const sub = newSub();
    const email = `ada.lovelace.${sub}@example.com`;
    const users = await Promise.all(Array.from({ length: 10 }, () => ensureUser(sub, email)));
    expect(new Set(users.map((u) => u.createdAt)).size).toBe(1);
    expect(users[0]).toMatchObject({
      id: sub,
      credits: 6,
      displayName: `ada.lovelace.${sub}`,
      email,
    });
    const ledger = await listLedger(sub);
    expect(ledger.map((e) => [e.reason, e.delta])).toEqual([['signup_bonus', 6]]);
    await expectLedgerBalanced(sub);
  });

  it('20 concurrent spends of 6 against 12 credits: exactly 2 succeed, 18 are InsufficientCreditsError', async () => {
    const sub = newSub();
    await ensureUser(sub, `spender-${sub}@example.com`);
    await grantCredits({ sub, amount: 6, ref: `seed-${sub}` });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => spendCredits({ sub, amount: 6, ref: `generation-${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(2);
    expect(rejected).toHaveLength(18);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(InsufficientCreditsError);
      expect((r.reason as Error).message).toBe('Insufficient credits');
    }
    expect((await getUser(sub))?.credits).toBe(0);
    const ledger = await listLedger(sub);
    expect(ledger.reduce((s, e) => s + e.delta, 0)).toBe(0);
    expect(ledger.filter((e) => e.reason === 'generation')).toHaveLength(2);
    await expectLedgerBalanced(sub);
  });

  it('one grant ref applied 10 times concurrently is applied once', async () => {
    const sub = newSub();
    await ensureUser(sub, `buyer-${sub}@example.com`);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => grantCredits({ sub, amount: 60, ref: 'cs_test_same_session' })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(results.every((r) => r.balance === 66)).toBe(true);
    expect((await getUser(sub))?.credits).toBe(66);
    expect((await listLedger(sub)).filter((e) => e.reason === 'purchase')).toHaveLength(1);
    await expectLedgerBalanced(sub);
  });

  it('writes the related item in the same transaction, and writes nothing when the spend fails', async () => {
    const sub = newSub();
    await ensureUser(sub, `gen-${sub}@example.com`);
    const item = (id: string) => ({ PK: `USER#${sub}`, SK: `GENERATION#${id}`, status: 'queued' });
    await spendCredits({ sub, amount: 6, ref: 'g1', related: { item: item('g1') } });
    await expect(
      spendCredits({ sub, amount: 6, ref: 'g2', related: { item: item('g2') } }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    const ledger = await listLedger(sub);
    expect(ledger.map((e) => e.ref).sort()).toEqual(['g1', sub].sort());
    await expectLedgerBalanced(sub);
  });

  it('refunds are idempotent per ref and rejected amounts change nothing', async () => {
    const sub = newSub();
    await ensureUser(sub, `refund-${sub}@example.com`);
    await spendCredits({ sub, amount: 6, ref: 'g' });
    await Promise.all([1, 2, 3].map(() => refundCredits({ sub, amount: 1, ref: 'g#slot-3' })));
    await refundCredits({ sub, amount: 1, ref: 'g#slot-4' });
    expect((await getUser(sub))?.credits).toBe(2);
    await expect(spendCredits({ sub, amount: 0, ref: 'zero' })).rejects.toBeInstanceOf(RangeError);
    await expect(grantCredits({ sub, amount: 1.5, ref: 'half' })).rejects.toBeInstanceOf(RangeError);
    await expectLedgerBalanced(sub);
  });

  it('refuses changes for a user that does not exist', async () => {
    await expect(grantCredits({ sub: newSub(), amount: 5, ref: 'x' })).rejects.toBeInstanceOf(
      UserNotFoundError,
    );
  });
});
