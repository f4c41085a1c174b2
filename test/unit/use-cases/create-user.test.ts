import { describe, expect, it } from 'vitest';
import { createUser, type CreateUserPorts } from '../../../functions/use-cases/create-user';
import { sendWelcomeMail } from '../../../functions/use-cases/send-account-mails';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';
import { accountMailWorld } from './fakes/mail-markers';
import { sesError } from './fakes/mailer';
import { FakePurchases } from './fakes/purchases';

/** The trigger's ports over an in-memory ledger, with the real welcome e-mail on a recording mailer. */
function world() {
  const ledger = new FakeLedger();
  const mail = accountMailWorld(ledger, new FakePurchases(ledger));
  const ports: CreateUserPorts = {
    ensureUser: ledger.ensureUser,
    sendWelcomeMail: (sub) => sendWelcomeMail(sub, mail.ports),
  };
  return { ledger, mail, ports };
}

describe('createUser: a confirmed sign-up becomes a user', () => {
  it('grants the 6 free credits exactly once, however often the confirmation arrives', async () => {
    const { ledger, ports } = world();
    await createUser('user-1', 'ada@example.com', ports);
    const again = await createUser('user-1', 'ada@example.com', ports);
    expect(again).toMatchObject({ credits: 6, signupBonus: 'granted' });
    expect(ledger.ledgerSum('user-1')).toBe(6);
  });

  it('gives no bonus to a second account of the same person', async () => {
    const { ports } = world();
    await createUser('user-1', 'ada@example.com', ports);
    expect(await createUser('user-2', 'ada@example.com', ports)).toMatchObject({
      credits: 0,
      signupBonus: 'already-claimed',
    });
  });

  it('lets a failure through (Cognito retries the trigger; nothing is written, nothing sent)', async () => {
    const { mail, ports } = world();
    const down = new Error('pepper not configured');
    await expect(
      createUser('user-1', 'ada@example.com', { ...ports, ensureUser: failing(down) }),
    ).rejects.toBe(down);
    expect(mail.mailer.sent).toEqual([]);
  });

  it('welcomes the new account once: a retried trigger finds the marker and sends nothing', async () => {
    const { mail, ports } = world();
    await createUser('user-1', 'ada@example.com', ports);
    await createUser('user-1', 'ada@example.com', ports);
    expect(mail.mailer.sent.map((m) => [m.to, m.content.subject])).toEqual([
      ['ada@example.com', 'Welcome to Headshot Studio'],
    ]);
  });

  it('confirms the sign-up when the welcome e-mail fails', async () => {
    const { ledger, mail, ports } = world();
    mail.mailer.refuseWith = sesError('MessageRejected', 'Email address is not verified.');
    expect(await createUser('user-1', 'ada@example.com', ports)).toMatchObject({ credits: 6 });
    expect(ledger.users.has('user-1')).toBe(true);
    expect(mail.markers.state('welcome', 'user-1')).toMatchObject({ failures: 1, error: 'MessageRejected' });
  });
});
