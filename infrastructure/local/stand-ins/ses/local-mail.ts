import type { LocalLog } from '../../support/log';
import { findFreePort, HOST } from '../../support/ports';
import { startMailCatcher } from './maildev';
import { mailboxOf } from './send-email';
import { startSesStandIn } from './server';

/** The sender the local stack gives the handlers when `.env` sets no MAIL_FROM. */
export const LOCAL_SENDER = 'Headshot Studio <no-reply@headshot.studio.local>';

/**
 * The configuration set the local stack sends with when `.env` names none: in the cloud every mail goes through the
 * stage's configuration set (its bounce and complaint events feed the alarms), so the local path names one too and
 * the stand-in checks it exists, as SES does.
 */
export const LOCAL_CONFIGURATION_SET = 'headshot-studio-local';

/** The local stack's mail: what the handlers need, the inbox to print, and how to stop it all. */
export interface LocalMail {
  /**
   * `AWS_ENDPOINT_URL_SESV2` (the SES stand-in), `MAIL_FROM` (the configured one, else {@link LOCAL_SENDER}) and
   * `MAIL_CONFIGURATION_SET` (the configured one, else {@link LOCAL_CONFIGURATION_SET}).
   */
  env: Record<string, string>;
  /** MailDev's web inbox, unless MAIL_SMTP_URL sends the mail to another SMTP server. */
  inboxUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the local mail path (docs/architecture.md §5): the mail catcher (MailDev: SMTP and a web inbox, unless
 * `MAIL_SMTP_URL` names another SMTP server) and, in front of it, the SES v2 stand-in the handlers' SES client talks
 * to. The stand-in knows the configured MAIL_CONFIGURATION_SET (default {@link LOCAL_CONFIGURATION_SET}), as if the
 * stack had created it, and refuses any other with SES's `NotFoundException`. Like SES it sends
 * only from verified identities: `SES_VERIFIED_IDENTITIES` (addresses or domains, comma-separated; default the
 * sender, MAIL_FROM); `SES_SANDBOX=true` makes it refuse unverified recipients as a new SES account does.
 *
 * @throws {Error} when SES_SANDBOX is neither `true` nor `false`
 * @param configuredEnv the environment the stack was given (`.env`, the shell)
 */
export async function startLocalMail(options: {
  configuredEnv: Record<string, string | undefined> | undefined;
  sesPort: number | undefined;
  smtpPort: number | undefined;
  webPort: number | undefined;
  region: string;
  log: LocalLog;
}): Promise<LocalMail> {
  const configured = options.configuredEnv ?? {};
  const catcher = configured.MAIL_SMTP_URL
    ? undefined
    : await startMailCatcher({
        smtpPort: options.smtpPort ?? (await findFreePort()),
        webPort: options.webPort ?? (await findFreePort()),
        log: options.log,
      });
  try {
    const configurationSet = configured.MAIL_CONFIGURATION_SET?.trim() || LOCAL_CONFIGURATION_SET;
    const sender = configured.MAIL_FROM?.trim() || LOCAL_SENDER;
    const listed = (configured.SES_VERIFIED_IDENTITIES ?? '')
      .split(',')
      .map((identity) => identity.trim())
      .filter(Boolean);
    const sandbox = (configured.SES_SANDBOX?.trim() || 'false').toLowerCase();
    if (!['true', 'false'].includes(sandbox))
      throw new Error(`SES_SANDBOX "${configured.SES_SANDBOX}": true or false`);
    const ses = await startSesStandIn({
      port: options.sesPort ?? 0,
      host: HOST,
      smtpUrl: configured.MAIL_SMTP_URL ?? catcher!.smtpUrl,
      region: options.region,
      verifiedIdentities: listed.length > 0 ? listed : [mailboxOf(sender)],
      sandbox: sandbox === 'true',
      configurationSets: [configurationSet],
      log: options.log,
    });
    return {
      env: {
        AWS_ENDPOINT_URL_SESV2: ses.endpoint,
        MAIL_FROM: sender,
        MAIL_CONFIGURATION_SET: configurationSet,
      },
      inboxUrl: catcher?.inboxUrl,
      stop: async () => {
        await ses.stop();
        await catcher?.stop();
      },
    };
  } catch (error) {
    await catcher?.stop();
    throw error;
  }
}
