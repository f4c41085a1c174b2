import { describe, expect, it } from 'vitest';
import { receiptAmount, receiptMail, welcomeMail } from '../../functions/domain/account-mails';

/* The welcome and receipt e-mails' content (functions/domain/account-mails.ts; docs/product-spec.md "E-mails"). */

const links = {
  dashboardUrl: 'https://h.example/dashboard?a=1&b=2',
  generatorUrl: 'https://h.example/generator',
  supportEmail: 'support@h.example',
};

const purchase = {
  displayName: 'Ada <Lovelace>',
  checkoutSessionId: 'cs_test_1',
  packId: 'pro',
  credits: 100,
  amountTotal: 7500,
  currency: 'usd',
  receiptUrl: null,
  createdAt: '2026-11-29T23:30:00.000Z',
};

describe('account e-mails', () => {
  it('writes a receipt’s amount with its cents, in the currency charged', () => {
    expect(receiptAmount(4500, 'usd')).toBe('$45.00');
    expect(receiptAmount(0, 'usd')).toBe('$0.00');
    expect(receiptAmount(123456, 'USD')).toBe('$1,234.56');
    expect(receiptAmount(3500, 'eur')).toBe('€35.00');
  });

  it('dates the receipt by the purchase’s UTC day and names the pack', () => {
    const { text } = receiptMail(purchase, links);
    expect(text).toContain('Date: Nov 29, 2026');
    expect(text).toContain('Pack: Pro Pack');
    expect(receiptMail({ ...purchase, packId: 'retired' }, links).text).toContain('Pack: retired');
    expect(receiptMail({ ...purchase, credits: 1 }, links).subject).toBe('Your receipt: 1 credit for $75.00');
  });

  it('escapes what it puts in HTML, and says the same in both bodies', () => {
    const { html, text } = receiptMail(purchase, links);
    expect(html).toContain('Hi Ada &lt;Lovelace&gt;,');
    expect(html).not.toContain('<Lovelace>');
    expect(html).toContain('href="https://h.example/dashboard?a=1&amp;b=2"');
    expect(text).toContain('Hi Ada <Lovelace>,');
    for (const value of ['Pro Pack', '$75.00', 'cs_test_1', 'Nov 29, 2026']) expect(html).toContain(value);
    // The reference (a 66-character session id in Stripe) may break anywhere, so it never widens a phone's page.
    expect(html).toMatch(/<td style="word-break:break-all">cs_test_1<\/td>/);
  });

  it('has no unsubscribe link and no offer in the welcome: it is about the account', () => {
    const { subject, text, html } = welcomeMail(
      { displayName: 'ada', signupBonus: 'already-claimed' },
      links,
    );
    expect(subject).toBe('Welcome to Headshot Studio');
    expect(text).toContain(
      'This account starts with 0 credits, because the free credits are once per person and this e-mail address already received them with an earlier account.',
    );
    expect(text).toContain('write to support@h.example');
    expect(`${text}${html}`).not.toMatch(/\$\d|pack|discount|offer/i);
  });
});
