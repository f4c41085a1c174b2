import { afterAll, beforeAll } from 'vitest';
import { startMailCatcher, type MailCatcher } from '../../infrastructure/local/stand-ins/ses/maildev';
import {
  startSesStandIn,
  type SesStandIn,
  type SesStandInOptions,
} from '../../infrastructure/local/stand-ins/ses/server';
import { findFreePort } from '../../infrastructure/local/support/ports';

/** The mail path of one test file, from {@link useLocalMail}. */
export interface LocalMail {
  /** MailDev, where every stand-in relays; available inside tests and hooks. */
  readonly catcher: MailCatcher;
  /**
   * Starts an SES v2 stand-in with `account` (region, verified identities, sandbox, send rate, configuration sets)
   * on a free loopback port, relaying into {@link catcher}; it is stopped after the file's tests.
   */
  startSes(account: Omit<SesStandInOptions, 'port' | 'host' | 'smtpUrl' | 'log'>): Promise<SesStandIn>;
}

const quiet = { info: () => undefined, error: () => undefined };

/**
 * Starts MailDev (the mail catcher `npm start` runs) on free ports before the file's tests; after them, stops the
 * SES stand-ins started through {@link LocalMail.startSes}, then MailDev. Register it before any hook that starts a
 * stand-in.
 */
export function useLocalMail(): LocalMail {
  let catcher: MailCatcher | undefined;
  const stands: SesStandIn[] = [];
  beforeAll(async () => {
    catcher = await startMailCatcher({
      smtpPort: await findFreePort(),
      webPort: await findFreePort(),
      log: quiet,
    });
  });
  afterAll(async () => {
    await Promise.all(stands.splice(0).map((ses) => ses.stop()));
    await catcher?.stop();
  });
  const local: LocalMail = {
    get catcher() {
      if (!catcher) throw new Error('MailDev is not started yet (use it inside a test or hook)');
      return catcher;
    },
    async startSes(account) {
      const ses = await startSesStandIn({
        ...account,
        port: 0,
        host: '127.0.0.1',
        smtpUrl: local.catcher.smtpUrl,
        log: quiet,
      });
      stands.push(ses);
      return ses;
    },
  };
  return local;
}
