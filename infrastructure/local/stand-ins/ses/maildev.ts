import type { IncomingMessage, Server } from 'node:http';
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
  const web = maildev.getServers()?.api?.server.server;
  if (web) serveInboxToEveryClient(web as Server);
  const inboxUrl = `http://${HOST}:${options.webPort}/`;
  options.log.info(`mail catcher: SMTP on ${HOST}:${options.smtpPort}, inbox ${inboxUrl}`);
  return {
    smtpUrl: `smtp://${HOST}:${options.smtpPort}`,
    inboxUrl,
    stop: () => maildev.stop(),
  };
}

/**
 * Whether a request to MailDev's web port asks for the inbox page: a GET or HEAD that is not for the REST API
 * (`/api/…`), the live updates (`/socket.io/…`) or a file of the page (a last path segment with a dot).
 */
export function asksForInboxPage(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const { pathname } = new URL(url ?? '/', 'http://inbox.invalid');
  if (/^\/(api|socket\.io)(\/|$)/.test(pathname)) return false;
  return !(pathname.split('/').at(-1) ?? '').includes('.');
}

/**
 * Makes MailDev 3 answer its inbox page to every client. Its web UI serves the page only from its not-found handler
 * and only to a request whose `Accept` names `text/html` (@maildev/ui's registerUI: anything else gets 404
 * `{"error":"Not found"}`), so `curl`, `fetch` and link checkers got "Not found" for the inbox while the REST API
 * answered (issue 35). A listener placed before Fastify's adds `text/html` to such a request's `Accept`.
 */
function serveInboxToEveryClient(web: Server): void {
  web.prependListener('request', (req: IncomingMessage) => {
    const accept = req.headers.accept ?? '';
    if (asksForInboxPage(req.method, req.url) && !accept.includes('text/html'))
      req.headers.accept = accept ? `text/html, ${accept}` : 'text/html';
  });
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
