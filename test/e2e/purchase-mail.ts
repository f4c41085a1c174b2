import { expect, inject } from 'vitest';
import { caughtMail, type CaughtMail } from '../../infrastructure/local/stand-ins/ses/maildev';
import { siteUrl, type E2eUser } from './helpers';

/** A pack as the receipt e-mail states it: its name, credits and amount paid ('$45.00'). */
export interface ReceiptPack {
  name: string;
  credits: number;
  amount: string;
}

/** The messages the local mail catcher (MailDev, inject('e2eStack').inboxUrl) holds for `user`, oldest first. */
async function mailTo(user: E2eUser): Promise<CaughtMail[]> {
  const { inboxUrl } = inject('e2eStack');
  return (await caughtMail(inboxUrl!)).filter((m) =>
    m.to.some((to) => to.address.toLowerCase() === user.email.toLowerCase()),
  );
}

/**
 * Issue 35 item 7, the e-mails people expect: waits until the mail catcher holds exactly two messages for `user`,
 * one welcome (sent at sign-up's confirmation) and one receipt of `pack`, and checks what each says
 * (docs/product-spec.md, "E-mails"). `cardReceiptUrl` is the Stripe receipt the dashboard's purchase history links
 * to; the receipt e-mail must give the same one. Throws (fails the test) on any other set of messages.
 */
export async function expectWelcomeAndReceipt(
  user: E2eUser,
  pack: ReceiptPack,
  cardReceiptUrl: string | null,
): Promise<void> {
  const receiptSubject = `Your receipt: ${pack.credits} credits for ${pack.amount}`;
  await expect
    .poll(async () => (await mailTo(user)).map((m) => m.subject).sort(), { timeout: 10_000 })
    .toEqual(['Welcome to Headshot Studio', receiptSubject]);
  const mails = await mailTo(user);
  const welcome = mails.find((m) => m.subject === 'Welcome to Headshot Studio')!;
  expect(welcome.text).toContain('Your account has 6 free credits');
  expect(welcome.text).toContain(`Open the generator: ${siteUrl('/generator')}`);
  const receipt = mails.find((m) => m.subject === receiptSubject)!;
  for (const line of [`Pack: ${pack.name}`, `Credits: ${pack.credits}`, `Amount paid: ${pack.amount}`])
    expect(receipt.text).toContain(line);
  expect(receipt.text).toContain(`See your purchases: ${siteUrl('/dashboard')}`);
  expect(receipt.text).toContain(`Your card receipt from Stripe: ${cardReceiptUrl}`);
  expect(receipt.html).toContain(
    `Thank you for your purchase. ${pack.credits} credits were added to your account.`,
  );
}
