import { claimReadyMail, getGeneration } from '../adapters/generations';
import { getUser } from '../adapters/ledger';
import { isMailRefused, loggableMailError, mailTransport, sendMail } from '../adapters/mailer';
import { logger } from '../common/logger';
import { countMetric } from '../common/metrics';
import { siteSettings } from '../config/site';
import { isTerminal } from '../domain/generation-status';
import { readyMail } from '../domain/ready-mail';

/** Why no e-mail went out. */
export type ReadyMailSkipped =
  'not-configured' | 'opted-out' | 'not-finished' | 'regeneration' | 'edit' | 'already-sent' | 'failed';

/** What NotifyCustomer answers: whether the mail went out, or why not. */
export interface ReadyMailOutcome {
  sent: boolean;
  skipped?: ReadyMailSkipped;
}

/** What the ready e-mail needs from the outside world: the generation, its customer, the mailer. */
export interface NotifyCustomerPorts {
  /** Whether a sender is configured (MAIL_FROM); without one nothing is sent. */
  mailConfigured: () => boolean;
  getGeneration: typeof getGeneration;
  getUser: typeof getUser;
  claimReadyMail: (sub: string, id: string) => Promise<boolean>;
  /** Sends one e-mail; returns the provider's message id. */
  sendMail: (to: string, content: Parameters<typeof sendMail>[1]) => Promise<string | null>;
  /** The dashboard's address the mail links to (SITE_ORIGIN + `/dashboard`). */
  dashboardUrl: () => string;
}

const adapters: NotifyCustomerPorts = {
  mailConfigured: () => mailTransport() !== 'none',
  getGeneration,
  getUser,
  claimReadyMail: (sub, id) => claimReadyMail(sub, id),
  sendMail,
  dashboardUrl: () => new URL('/dashboard', siteSettings().SITE_ORIGIN).toString(),
};

/**
 * NotifyCustomer, the last step of every path that ends a generation (succeeded, partial, failed): e-mails the
 * customer that their headshots are ready, or what was refunded (domain/ready-mail.ts), unless they turned "E-mail me
 * when my headshots are ready" off. At most once per generation (`notifiedAt` is claimed before sending), and never
 * for "Regenerate (1 credit)" or an edit (issue 36): the customer asked for that one headshot on a screen that shows
 * it (issue 27: one ready e-mail per generation). It never throws: a failure is logged and answered `skipped: 'failed'`, the
 * generation stays as it is. An SES refusal that comes from the account's setup (adapters/mailer.ts
 * `SES_SETUP_ERRORS`) also counts `MailRefused`, which alarms.
 */
export async function notifyCustomer(
  userId: string,
  generationId: string,
  ports: NotifyCustomerPorts = adapters,
): Promise<ReadyMailOutcome> {
  try {
    if (!ports.mailConfigured()) return { sent: false, skipped: 'not-configured' };
    const [generation, user] = await Promise.all([
      ports.getGeneration(userId, generationId),
      ports.getUser(userId),
    ]);
    if (!generation || !user || !isTerminal(generation.status))
      return { sent: false, skipped: 'not-finished' };
    if (generation.regeneratedFrom !== undefined) return { sent: false, skipped: 'regeneration' };
    if (generation.edit !== undefined) return { sent: false, skipped: 'edit' };
    if (!user.emailWhenReady) return { sent: false, skipped: 'opted-out' };
    if (!(await ports.claimReadyMail(userId, generationId))) return { sent: false, skipped: 'already-sent' };
    const content = readyMail({
      status: generation.status as 'succeeded' | 'partial' | 'failed',
      delivered: Object.keys(generation.slots).length,
      refunded: generation.creditsRefunded,
      displayName: user.displayName || user.email,
      dashboardUrl: ports.dashboardUrl(),
      likenessStopped: generation.likenessStop !== undefined,
    });
    const messageId = await ports.sendMail(user.email, content);
    logger.info('Ready e-mail sent', { status: generation.status, messageId });
    return { sent: true };
  } catch (error) {
    const refused = isMailRefused(error);
    if (refused) countMetric('MailRefused');
    logger.error('Ready e-mail not sent', { error: loggableMailError(error), refusedBySes: refused });
    return { sent: false, skipped: 'failed' };
  }
}
