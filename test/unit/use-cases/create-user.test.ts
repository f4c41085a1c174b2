import { describe, expect, it } from 'vitest';
import { createUser } from '../../../functions/use-cases/create-user';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';

describe('createUser: a confirmed sign-up becomes a user', () => {
  it('grants the 6 free credits exactly once, however often the confirmation arrives', async () => {
    const ledger = new FakeLedger();
    await createUser('user-1', 'ada@example.com', ledger);
    const again = await createUser('user-1', 'ada@example.com', ledger);
    expect(again).toMatchObject({ credits: 6, signupBonus: 'granted' });
    expect(ledger.ledgerSum('user-1')).toBe(6);
  });

  it('gives no bonus to a second account of the same person', async () => {
    const ledger = new FakeLedger();
    await createUser('user-1', 'ada@example.com', ledger);
    expect(await createUser('user-2', 'ada@example.com', ledger)).toMatchObject({
      credits: 0,
      signupBonus: 'already-claimed',
    });
  });

  it('lets a failure through (Cognito retries the trigger; nothing is written)', async () => {
    const down = new Error('pepper not configured');
    await expect(createUser('user-1', 'ada@example.com', { ensureUser: failing(down) })).rejects.toBe(down);
  });
});
