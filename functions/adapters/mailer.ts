import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import nodemailer, { type Transporter } from 'nodemailer';
import { loadConfig } from '../config';
import type { MailContent } from '../domain/ready-mail';

/**
 * Sends one e-mail (docs/architecture.md §8): Amazon SES v2 `SendEmail` in the cloud, from MAIL_FROM with the
 * optional MAIL_CONFIGURATION_SET; over SMTP when MAIL_SMTP_URL is set (locally, the mail catcher `npm start` runs,
 * whose web inbox shows the message). With neither configured nothing is sent.
 */

/** Where mail goes: `ses`, `smtp`, or `none` (not configured). */
export function mailTransport(): 'ses' | 'smtp' | 'none' {
  const config = loadConfig();
  if (config.MAIL_SMTP_URL) return 'smtp';
  return config.MAIL_FROM ? 'ses' : 'none';
}

const LOCAL_SENDER = 'Headshot Studio <no-reply@headshot.studio.local>';

let ses: SESv2Client | undefined;
let smtp: Transporter | undefined;

/**
 * Sends `content` to `to`.
 *
 * @returns the provider's message id, or `null` when mail is not configured
 * @throws the SES or SMTP error (the caller decides; a generation never fails because of mail)
 */
export async function sendMail(to: string, content: MailContent): Promise<string | null> {
  const config = loadConfig();
  const transport = mailTransport();
  if (transport === 'none') return null;
  if (transport === 'smtp') {
    smtp ??= nodemailer.createTransport(config.MAIL_SMTP_URL!);
    const info = await smtp.sendMail({ from: config.MAIL_FROM ?? LOCAL_SENDER, to, ...content });
    return String(info.messageId);
  }
  ses ??= new SESv2Client({ region: config.AWS_REGION });
  const { MessageId } = await ses.send(
    new SendEmailCommand({
      FromEmailAddress: config.MAIL_FROM,
      Destination: { ToAddresses: [to] },
      ConfigurationSetName: config.MAIL_CONFIGURATION_SET,
      Content: {
        Simple: {
          Subject: { Data: content.subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: content.text, Charset: 'UTF-8' },
            Html: { Data: content.html, Charset: 'UTF-8' },
          },
        },
      },
    }),
  );
  return MessageId ?? null;
}

/** Forgets the clients. Tests only (after resetConfigForTests). */
export function resetMailerForTests(): void {
  smtp?.close();
  smtp = undefined;
  ses = undefined;
}
