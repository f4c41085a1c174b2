import { getUser } from '../adapters/ledger';
import { claimMail, releaseMail, type MarkedMail } from '../adapters/mail-markers';
import { isMailRefused, loggableMailError, mailTransport, sendMail } from '../adapters/mailer';
import { getPurchase } from '../adapters/purchases';
import { countMetric } from '../common/metrics';
import { logger } from '../common/logger';
import { siteSettings } from '../config/site';
import { receiptMail, welcomeMail, type SiteLinks } from '../domain/account-mails';
import type { MailContent } from '../domain/mail-layout';

/**
 * The welcome e-mail after a confirmed sign-up and the receipt e-mail after each purchase (issue 35), through the
 * mailer and SES configuration set of every e-mail of the product (adapters/mailer.ts). Each goes out once: its
 * marker (adapters/mail-markers.ts) is claimed before sending. Neither ever throws: a failure is logged, its marker
 * given back with the failure counted, so the next call for the same account or purchase tries again; a refusal
 * that comes from the account's SES setup also counts `MailRefused`, which alarms.
 */

/** Whether the e-mail went out, or why not. */
export interface AccountMailOutcome {
  sent: boolean;
  skipped?: 'not-configured' | 'no-account' | 'no-purchase' | 'already-sent' | 'failed';
}

/** What both e-mails need from the outside world: the mailer, the markers, the customer. */
interface MailPorts {
  /** Whether a sender is configured (MAIL_FROM); without one nothing is sent. */
  mailConfigured: () => boolean;
  /** Sends one e-mail; returns the provider's message id. */
  sendMail: (to: string, content: MailContent) => Promise<string | null>;
  claimMail: typeof claimMail;
  releaseMail: typeof releaseMail;
  getUser: typeof getUser;
  /** The site's dashboard, generator and support address the e-mails link to. */
  siteLinks: () => SiteLinks;
}

/** What the welcome e-mail needs (see {@link sendWelcomeMail}). */
export type SendWelcomeMailPorts = MailPorts;

/** What the receipt e-mail needs (see {@link sendReceiptMail}): also the purchase item. */
export interface SendReceiptMailPorts extends MailPorts {
  getPurchase: typeof getPurchase;
}

/** The site's links from SITE_ORIGIN and SUPPORT_EMAIL (config/site.ts). */
function siteLinks(): SiteLinks {
  const { SITE_ORIGIN, SUPPORT_EMAIL } = siteSettings();
  return {
    dashboardUrl: new URL('/dashboard', SITE_ORIGIN).toString(),
    generatorUrl: new URL('/generator', SITE_ORIGIN).toString(),
    supportEmail: SUPPORT_EMAIL,
  };
}

const adapters: SendReceiptMailPorts = {
  mailConfigured: () => mailTransport() !== 'none',
  sendMail,
  claimMail,
  releaseMail,
  getUser,
  getPurchase,
  siteLinks,
};

/**
 * Sends the welcome e-mail of `sub`'s confirmed account, once (the Cognito post-confirmation trigger calls it after
 * creating the user; a retried trigger finds the marker set).
 */
export async function sendWelcomeMail(
  sub: string,
  ports: SendWelcomeMailPorts = adapters,
): Promise<AccountMailOutcome> {
  return sendOnce('welcome', sub, '', ports, async () => {
    const user = await ports.getUser(sub);
    if (!user || user.deletedAt) return 'no-account';
    const displayName = user.displayName || user.email;
    return {
      to: user.email,
      content: welcomeMail({ displayName, signupBonus: user.signupBonus }, ports.siteLinks()),
    };
  });
}

/**
 * Sends the receipt e-mail of `sub`'s purchase of Checkout Session `checkoutSessionId`, once, from what the purchase
 * item recorded at fulfilment (amount charged, credits, Stripe's receipt URL). Fulfilment calls it after the credits
 * landed, on every call for a paid session (webhook, success page, replays), so a send that failed is tried again.
 */
export async function sendReceiptMail(
  sub: string,
  checkoutSessionId: string,
  ports: SendReceiptMailPorts = adapters,
): Promise<AccountMailOutcome> {
  return sendOnce('receipt', sub, checkoutSessionId, ports, async () => {
    const [purchase, user] = await Promise.all([
      ports.getPurchase(sub, checkoutSessionId),
      ports.getUser(sub),
    ]);
    if (!purchase) return 'no-purchase';
    if (!user || user.deletedAt) return 'no-account';
    const content = receiptMail(
      { ...purchase, displayName: user.displayName || user.email },
      ports.siteLinks(),
    );
    return { to: user.email, content };
  });
}

/**
 * The steps both e-mails share: configured? → what to send (or why nothing) → claim the marker → send; a failed
 * send gives the marker back. Never throws.
 */
async function sendOnce(
  mail: MarkedMail,
  sub: string,
  ref: string,
  ports: MailPorts,
  compose: () => Promise<{ to: string; content: MailContent } | 'no-account' | 'no-purchase'>,
): Promise<AccountMailOutcome> {
  let claimed = false;
  try {
    if (!ports.mailConfigured()) return { sent: false, skipped: 'not-configured' };
    const message = await compose();
    if (typeof message === 'string') return { sent: false, skipped: message };
    claimed = await ports.claimMail(mail, sub, ref);
    if (!claimed) return { sent: false, skipped: 'already-sent' };
    const messageId = await ports.sendMail(message.to, message.content);
    logger.info('Account e-mail sent', { mail, messageId });
    return { sent: true };
  } catch (error) {
    const refused = isMailRefused(error);
    if (refused) countMetric('MailRefused');
    logger.error('Account e-mail not sent', { mail, error: loggableMailError(error), refusedBySes: refused });
    if (claimed) await giveBack(mail, sub, ref, error, ports);
    return { sent: false, skipped: 'failed' };
  }
}

/** Gives the marker back so the next call tries again; a failure here is logged (the marker then stays set). */
async function giveBack(mail: MarkedMail, sub: string, ref: string, error: unknown, ports: MailPorts) {
  try {
    await ports.releaseMail(mail, sub, ref, error instanceof Error ? error.name : 'Error');
  } catch (releaseError) {
    logger.error('Account e-mail marker not given back: it will not be tried again', {
      mail,
      error: String(releaseError),
    });
  }
}
