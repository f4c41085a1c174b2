import { describe, expect, it } from 'vitest';
import { notifyCustomer, type NotifyCustomerPorts } from '../../../functions/use-cases/notify-customer';
import { failing } from './fakes/failures';
import { FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeLedger, type FakeUser } from './fakes/ledger';
import { RecordingMailer, sesError } from './fakes/mailer';

const SUB = 'user-1';

/** A customer and a generation of `fields` (succeeded, 6 headshots by default), and a recording mailer. */
function world(fields: Partial<FakeGeneration> = {}, user: Partial<FakeUser> = {}) {
  const generations = new FakeGenerations();
  const ledger = new FakeLedger();
  const mailer = new RecordingMailer();
  ledger.seedUser(SUB, 0, { email: 'ada@example.com', displayName: 'Ada', ...user });
  const slots = Object.fromEntries([0, 1, 2, 3, 4, 5].map((s) => [String(s), `headshot-${s}`]));
  const generation = generations.seed({ status: 'succeeded', slots, ...fields });
  const ports: NotifyCustomerPorts = {
    mailConfigured: () => true,
    getGeneration: generations.getGeneration,
    getUser: ledger.getUser,
    claimReadyMail: generations.claimReadyMail,
    sendMail: mailer.sendMail,
    dashboardUrl: () => 'https://headshots.example.com/dashboard',
  };
  const notify = (p: NotifyCustomerPorts = ports) => notifyCustomer(SUB, generation.id, p);
  return { generations, ledger, mailer, generation, ports, notify };
}

describe('notifyCustomer', () => {
  it('e-mails the customer once that their headshots are ready, linking the dashboard', async () => {
    const { notify, mailer } = world();
    expect(await notify()).toEqual({ sent: true });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]!.to).toBe('ada@example.com');
    expect(mailer.sent[0]!.content.subject).toBe('Your headshots are ready!');
    expect(mailer.sent[0]!.content.text).toContain('https://headshots.example.com/dashboard');
  });

  it('says what was refunded when the generation failed', async () => {
    const { notify, mailer } = world({ status: 'failed', slots: {}, creditsRefunded: 6 });
    await notify();
    expect(mailer.sent[0]!.content.subject).toBe("We couldn't create your headshots — 6 credits refunded");
  });

  it('never sends twice for one generation', async () => {
    const { notify, mailer } = world();
    await notify();
    expect(await notify()).toEqual({ sent: false, skipped: 'already-sent' });
    expect(mailer.sent).toHaveLength(1);
  });

  it('sends nothing for a regeneration or an edit, to a customer who opted out, or before the generation ended', async () => {
    expect(await world({ regeneratedFrom: 'headshot-1' }).notify()).toEqual({
      sent: false,
      skipped: 'regeneration',
    });
    const edit = { headshotId: 'headshot-1', request: { kind: 'upscale' } } as const;
    const edited = world({ status: 'failed', slots: {}, creditsRefunded: 1, edit });
    expect(await edited.notify()).toEqual({ sent: false, skipped: 'edit' });
    expect(edited.mailer.sent).toEqual([]);
    expect(await world({}, { emailWhenReady: false }).notify()).toEqual({
      sent: false,
      skipped: 'opted-out',
    });
    expect(await world({ status: 'running' }).notify()).toEqual({ sent: false, skipped: 'not-finished' });
  });

  it('sends nothing when no sender is configured, reading nothing', async () => {
    const { notify, ports } = world();
    const unconfigured = { ...ports, mailConfigured: () => false, getGeneration: failing() };
    expect(await notify(unconfigured)).toEqual({ sent: false, skipped: 'not-configured' });
  });

  it('never throws: an SES refusal is answered as failed, the generation stays as it is', async () => {
    const { notify, mailer, generations, generation } = world();
    mailer.refuseWith = sesError('MessageRejected', 'Email address is not verified: ada@example.com');
    expect(await notify()).toEqual({ sent: false, skipped: 'failed' });
    expect(generations.stored(SUB, generation.id)!.status).toBe('succeeded');
  });

  it('never throws when the table cannot be read either', async () => {
    const { notify, ports } = world();
    expect(await notify({ ...ports, getUser: failing(new Error('table down')) })).toEqual({
      sent: false,
      skipped: 'failed',
    });
  });
});
