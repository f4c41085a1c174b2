import { describe, expect, it } from 'vitest';
import { MAIL_ATTEMPTS } from '../../../functions/domain/mail-attempts';
import { findPack } from '../../../functions/domain/packs';
import { sendReceiptMail, sendWelcomeMail } from '../../../functions/use-cases/send-account-mails';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';
import { accountMailWorld, SITE_LINKS } from './fakes/mail-markers';
import { sesError } from './fakes/mailer';
import { FakePurchases } from './fakes/purchases';

const sub = 'user-1';
const session = 'cs_test_receipt1';
const pack = findPack('popular')!;

function world() {
  const ledger = new FakeLedger();
  const purchases = new FakePurchases(ledger);
  return { ledger, purchases, ...accountMailWorld(ledger, purchases) };
}

/** A world whose user bought the Popular Pack through `session` (the purchase item fulfilment writes). */
function buyer(receiptUrl: string | null = 'https://pay.stripe.com/receipts/rcpt_1') {
  const w = world();
  w.ledger.seedUser(sub, 6, { email: 'ada@example.com', displayName: 'ada' });
  w.purchases.seedPurchase(sub, {
    checkoutSessionId: session,
    packId: pack.id,
    credits: pack.credits,
    amountTotal: pack.priceCents,
    paymentIntentId: 'pi_1',
    receiptUrl,
  });
  return w;
}

describe('sendWelcomeMail: once per confirmed account', () => {
  it('welcomes the confirmed address with its free credits and the generator, once however often it is called', async () => {
    const { ledger, mailer, markers, ports } = world();
    ledger.seedUser(sub, 6, { email: 'ada@example.com', displayName: 'ada' });

    expect(await sendWelcomeMail(sub, ports)).toEqual({ sent: true });
    expect(await sendWelcomeMail(sub, ports)).toEqual({ sent: false, skipped: 'already-sent' });

    expect(mailer.sent).toHaveLength(1);
    const [{ to, content }] = mailer.sent as [(typeof mailer.sent)[number]];
    expect(to).toBe('ada@example.com');
    expect(content.subject).toBe('Welcome to Headshot Studio');
    expect(content.text).toContain('Hi ada,');
    expect(content.text).toContain(
      'Your account has 6 free credits: a generation of 6 headshots costs 6 credits.',
    );
    expect(content.text).toContain(`Open the generator: ${SITE_LINKS.generatorUrl}`);
    expect(content.text).toContain('not marketing, so there is nothing to unsubscribe from');
    expect(content.html).toContain(`href="${SITE_LINKS.generatorUrl}"`);
    expect(markers.state('welcome', sub)).toEqual({ claimed: true, failures: 0 });
  });

  it('tells an account that started without the free credits why', async () => {
    const { ledger, mailer, ports } = world();
    ledger.seedUser(sub, 0, { signupBonus: 'disposable-address' });
    await sendWelcomeMail(sub, ports);
    expect(mailer.sent[0]!.content.text).toContain(
      'This account starts with 0 credits, because free credits need a lasting e-mail address and this one is at a disposable e-mail service.',
    );
    expect(mailer.sent[0]!.content.text).not.toContain('free credits:');
  });

  it('sends nothing without a configured sender, and claims nothing', async () => {
    const { ledger, mailer, markers, ports } = world();
    ledger.seedUser(sub);
    expect(await sendWelcomeMail(sub, { ...ports, mailConfigured: () => false })).toEqual({
      sent: false,
      skipped: 'not-configured',
    });
    expect(mailer.sent).toEqual([]);
    expect(markers.state('welcome', sub).claimed).toBe(false);
  });

  it('sends nothing for an account that does not exist or was deleted', async () => {
    const { ledger, mailer, ports } = world();
    expect(await sendWelcomeMail(sub, ports)).toEqual({ sent: false, skipped: 'no-account' });
    ledger.seedUser('gone', 0, { deletedAt: '2026-01-02T00:00:00.000Z' });
    expect(await sendWelcomeMail('gone', ports)).toEqual({ sent: false, skipped: 'no-account' });
    expect(mailer.sent).toEqual([]);
  });

  it('gives the marker back when SES refuses, so the next call tries again, and gives up after MAIL_ATTEMPTS', async () => {
    const { ledger, mailer, markers, ports } = world();
    ledger.seedUser(sub);
    mailer.refuseWith = sesError('TooManyRequestsException', 'Maximum sending rate exceeded.');
    expect(await sendWelcomeMail(sub, ports)).toEqual({ sent: false, skipped: 'failed' });
    expect(markers.state('welcome', sub)).toEqual({
      claimed: false,
      failures: 1,
      error: 'TooManyRequestsException',
    });

    mailer.refuseWith = undefined;
    expect(await sendWelcomeMail(sub, ports)).toEqual({ sent: true });
    expect(mailer.sent).toHaveLength(1);

    const other = world();
    other.ledger.seedUser(sub);
    other.mailer.refuseWith = sesError('MessageRejected', 'Email address is not verified.');
    for (let i = 0; i < MAIL_ATTEMPTS; i++) await sendWelcomeMail(sub, other.ports);
    other.mailer.refuseWith = undefined;
    expect(await sendWelcomeMail(sub, other.ports)).toEqual({ sent: false, skipped: 'already-sent' });
    expect(other.mailer.sent).toEqual([]);
    expect(other.markers.state('welcome', sub)).toMatchObject({
      failures: MAIL_ATTEMPTS,
      error: 'MessageRejected',
    });
  });

  it('never throws: a table that fails, or a marker that cannot be given back, is answered failed', async () => {
    const { ledger, mailer, markers, ports } = world();
    ledger.seedUser(sub);
    expect(await sendWelcomeMail(sub, { ...ports, getUser: failing() })).toEqual({
      sent: false,
      skipped: 'failed',
    });
    expect(await sendWelcomeMail(sub, { ...ports, claimMail: failing() })).toEqual({
      sent: false,
      skipped: 'failed',
    });
    mailer.refuseWith = sesError('MessageRejected', 'refused');
    expect(await sendWelcomeMail(sub, { ...ports, releaseMail: failing() })).toEqual({
      sent: false,
      skipped: 'failed',
    });
    // The marker stays claimed: no second attempt rather than a risk of two e-mails.
    expect(markers.state('welcome', sub)).toEqual({ claimed: true, failures: 0 });
  });
});

describe('sendReceiptMail: once per purchase', () => {
  it('sends the purchase as recorded: pack, credits, amount charged, date, reference and Stripe’s receipt', async () => {
    const { mailer, ports, purchases } = buyer();
    expect(await sendReceiptMail(sub, session, ports)).toEqual({ sent: true });
    expect(await sendReceiptMail(sub, session, ports)).toEqual({ sent: false, skipped: 'already-sent' });

    expect(mailer.sent).toHaveLength(1);
    const { to, content } = mailer.sent[0]!;
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(purchases.purchase(sub, session)!.createdAt),
    );
    expect(to).toBe('ada@example.com');
    expect(content.subject).toBe('Your receipt: 60 credits for $45.00');
    expect(content.text).toContain('Thank you for your purchase. 60 credits were added to your account.');
    for (const fact of [
      'Pack: Popular Pack',
      'Credits: 60',
      'Amount paid: $45.00',
      `Date: ${date}`,
      `Reference: ${session}`,
    ])
      expect(content.text).toContain(fact);
    expect(content.text).toContain(`See your purchases: ${SITE_LINKS.dashboardUrl}`);
    expect(content.text).toContain('Your card receipt from Stripe: https://pay.stripe.com/receipts/rcpt_1');
    expect(content.html).toContain('href="https://pay.stripe.com/receipts/rcpt_1"');
  });

  it('without Stripe’s receipt URL, links only to the purchases on the dashboard', async () => {
    const { mailer, ports } = buyer(null);
    await sendReceiptMail(sub, session, ports);
    expect(mailer.sent[0]!.content.text).not.toContain('Stripe');
    expect(mailer.sent[0]!.content.text).toContain(`See your purchases: ${SITE_LINKS.dashboardUrl}`);
  });

  it('sends nothing for a purchase that is not recorded, or a buyer who deleted their account', async () => {
    const { mailer, ports, ledger } = buyer();
    expect(await sendReceiptMail(sub, 'cs_test_other', ports)).toEqual({
      sent: false,
      skipped: 'no-purchase',
    });
    ledger.users.get(sub)!.deletedAt = '2026-01-02T00:00:00.000Z';
    expect(await sendReceiptMail(sub, session, ports)).toEqual({ sent: false, skipped: 'no-account' });
    expect(mailer.sent).toEqual([]);
  });

  it('records a refused send on the purchase and sends on the next call', async () => {
    const { mailer, markers, ports } = buyer();
    mailer.refuseWith = sesError('NotFoundException', 'Configuration set <x> does not exist.');
    expect(await sendReceiptMail(sub, session, ports)).toEqual({ sent: false, skipped: 'failed' });
    expect(markers.state('receipt', sub, session)).toEqual({
      claimed: false,
      failures: 1,
      error: 'NotFoundException',
    });
    mailer.refuseWith = undefined;
    expect(await sendReceiptMail(sub, session, ports)).toEqual({ sent: true });
    expect(await sendReceiptMail(sub, session, { ...ports, getPurchase: failing() })).toEqual({
      sent: false,
      skipped: 'failed',
    });
    expect(mailer.sent).toHaveLength(1);
  });
});
