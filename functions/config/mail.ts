import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { optionalString } from './fields';

/** The product's e-mails: "headshots ready", the welcome, the receipts (docs/architecture.md §8). */
const mail = defineSettings(
  z.object({
    /**
     * Sender, e.g. `Headshot Studio <headshots@example.com>`: an identity verified in Amazon SES (cloud; `npm start`
     * sets a local sender for its SES stand-in). Unset: no e-mail is sent.
     */
    MAIL_FROM: optionalString,
    /** Optional SES configuration set for those e-mails (event publishing, dedicated IPs). */
    MAIL_CONFIGURATION_SET: optionalString,
  }),
);

/** The sender and configuration set of every e-mail the product sends. */
export type MailSettings = ReturnType<typeof mail.load>;
/** The mail settings of this execution environment (parsed once per cold start). */
export const mailSettings = mail.load;
/** Parses an environment's mail settings. @throws {ConfigError} naming each bad variable. */
export const parseMailSettings = mail.parse;
