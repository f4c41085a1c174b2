import { describe, expect, it } from 'vitest';
import { asksForInboxPage, caughtMail } from '../../infrastructure/local/stand-ins/ses/maildev';
import { useLocalMail } from '../helpers/local-mail';

/*
 * The local mail catcher's web port (infrastructure/local/stand-ins/ses/maildev.ts): MailDev 3 served its inbox page
 * only to requests whose Accept names text/html and answered 404 {"error":"Not found"} to any other (curl, fetch),
 * while its REST API worked (issue 35). The inbox page is now the answer to every client; the API is unchanged.
 */

const mail = useLocalMail();

describe('the mail catcher’s inbox page', () => {
  it('answers the inbox page to a client that sends no Accept header, as to a browser', async () => {
    const { inboxUrl } = mail.catcher;
    const clients: Record<string, string>[] = [
      {},
      { accept: '*/*' },
      { accept: 'text/html,application/xhtml+xml' },
    ];
    for (const headers of clients) {
      const res = await fetch(inboxUrl, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toMatch(/<title>MailDev<\/title>/i);
    }
  });

  it('keeps the REST API as it was: JSON, and 404 for what it does not have', async () => {
    const { inboxUrl } = mail.catcher;
    expect(await caughtMail(inboxUrl)).toEqual([]);
    const missing = await fetch(new URL('api/email/no-such-id', inboxUrl));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('tells the inbox page from the API, the live updates and the page’s files', () => {
    expect(asksForInboxPage('GET', '/')).toBe(true);
    expect(asksForInboxPage('HEAD', '/?q=1')).toBe(true);
    expect(asksForInboxPage('GET', '/email/abc')).toBe(true);
    expect(asksForInboxPage('GET', '/api/email')).toBe(false);
    expect(asksForInboxPage('GET', '/socket.io/?EIO=4')).toBe(false);
    expect(asksForInboxPage('GET', '/assets/index-abc.js')).toBe(false);
    expect(asksForInboxPage('POST', '/')).toBe(false);
  });
});
