import { MailDev } from 'maildev';
import type { LocalLog } from '../../support/log';
import { HOST } from '../../support/ports';

/**
 * The local mail catcher (docs/architecture.md §5): MailDev, an SMTP server that keeps every message and shows it in
 * a web inbox. The SES v2 stand-in (server.ts) relays to it every message the handlers send with the SES client; a
 * developer reads the mail in the browser, and tests read it from MailDev's REST API (`GET /api/email`).
 */

/** A running mail catcher. */
export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`: where the SES stand-in relays. */
  smtpUrl: string;
  /** The web inbox, e.g. `http://127.0.0.1:1080/`. */
  inboxUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts MailDev on loopback: SMTP on `smtpPort`, the web inbox and its REST API on `webPort` (both must be free).
 * Messages live in memory and are gone when it stops.
 */
export async function startMailCatcher(options: {
  smtpPort: number;
  webPort: number;
  log: LocalLog;
}): Promise<MailCatcher> {
  const maildev = new MailDev({
    smtp: options.smtpPort,
    web: options.webPort,
    ip: HOST,
    webIp: HOST,
    silent: true,
  });
  await maildev.start();
  const inboxUrl = `http://${HOST}:${options.webPort}/`;
  options.log.info(`mail catcher: SMTP on ${HOST}:${options.smtpPort}, inbox ${inboxUrl}`);
  return {
    smtpUrl: `smtp://${HOST}:${options.smtpPort}`,
    inboxUrl,
    stop: () => maildev.stop(),
  };
}

/** One message as MailDev's REST API lists it (`GET /api/email`). */
export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  from: { address: string; name?: string }[];
}

/** Every message the catcher holds, oldest first. */
export async function caughtMail(inboxUrl: string): Promise<CaughtMail[]> {
  const res = await fetch(new URL('api/email', inboxUrl));
  if (!res.ok) throw new Error(`MailDev answered ${res.status}`);
  return (await res.json()) as CaughtMail[];
}
