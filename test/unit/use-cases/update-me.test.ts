import { describe, expect, it } from 'vitest';
import { UserNotFoundError } from '../../../functions/domain/credits';
import { updateMe, type UpdateMePorts } from '../../../functions/use-cases/update-me';
import { FakeLedger } from './fakes/ledger';

const sub = 'user-1';

/** The user items in a {@link FakeLedger}, with the preference's write of adapters/preferences.ts. */
function setup() {
  const ledger = new FakeLedger();
  const ports: UpdateMePorts = {
    getUser: ledger.getUser,
    setEmailWhenReady: async (s, value) => {
      const user = ledger.users.get(s);
      if (!user) throw new UserNotFoundError();
      user.emailWhenReady = value;
    },
  };
  return { ledger, ports };
}

describe('updateMe: the caller’s preferences', () => {
  it('turns the ready e-mail off and on again, answering what is stored', async () => {
    const { ledger, ports } = setup();
    ledger.seedUser(sub);
    expect(await updateMe(sub, { emailWhenReady: false }, ports)).toEqual({ emailWhenReady: false });
    expect(ledger.users.get(sub)?.emailWhenReady).toBe(false);
    expect(await updateMe(sub, { emailWhenReady: true }, ports)).toEqual({ emailWhenReady: true });
  });

  it('throws UserNotFoundError before the user exists (GET /api/me creates it)', async () => {
    const { ports } = setup();
    await expect(updateMe(sub, { emailWhenReady: false }, ports)).rejects.toBeInstanceOf(UserNotFoundError);
  });
});
