import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { runtimeSettings } from '../config/runtime';
import { mailSettings } from '../config/mail';
import { onConfigReset } from '../config/settings';
import type { MailContent } from '../domain/ready-mail';
import { awsClient } from './support/aws';

/**
 * Sends one e-mail (docs/architecture.md §8) with Amazon SES v2 `SendEmail`, from MAIL_FROM with the optional
 * MAIL_CONFIGURATION_SET. The same client runs everywhere: in the cloud it reaches SES; locally
 * AWS_ENDPOINT_URL_SESV2 points it at the SES stand-in, which relays each message to the mail catcher whose web
 * inbox shows it (docs/architecture.md §5). Without MAIL_FROM nothing is sent.
 */

/** Where mail goes: `ses`, or `none` when no sender is configured. */
export function mailTransport(): 'ses' | 'none' {
  return mailSettings().MAIL_FROM ? 'ses' : 'none';
}

let ses: SESv2Client | undefined;
onConfigReset(() => (ses = undefined));

/**
 * Sends `content` to `to`.
 *
 * @returns SES's message id, or `null` when mail is not configured
 * @throws the SES error (e.g. `MessageRejected`, `TooManyRequestsException` after the SDK's retries); the caller
 *   decides (a generation never fails because of mail)
 */
export async function sendMail(to: string, content: MailContent): Promise<string | null> {
  const config = mailSettings();
  if (mailTransport() === 'none') return null;
  ses ??= awsClient(new SESv2Client({ region: runtimeSettings().AWS_REGION }));
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

/**
 * SES v2 SendEmail errors that come from the account's setup, not from this message or a passing overload: the
 * sender is not a verified identity or, in the sandbox, the recipient is not (`MessageRejected`), the MAIL FROM
 * domain is not verified, sending is paused or the account suspended, the configuration set does not exist. Every
 * later message fails the same way until an operator acts (Amazon SES API v2 reference, SendEmail "Errors":
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html).
 */
export const SES_SETUP_ERRORS: ReadonlySet<string> = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'AccountSuspendedException',
  'SendingPausedException',
  'NotFoundException',
]);

/** Whether `error` is one of {@link SES_SETUP_ERRORS}. */
export function isMailRefused(error: unknown): boolean {
  return error instanceof Error && SES_SETUP_ERRORS.has(error.name);
}

/**
 * The error as it may be logged: name and message with every e-mail address replaced by `<address>`. SES names the
 * refused identities in its message ("…failed the check in region US-EAST-1: someone@example.com", see
 * https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-error-messages.html), and in the sandbox that is the
 * customer's address, which must not reach the logs.
 */
export function loggableMailError(error: unknown): { name: string; message: string; stack?: string } {
  const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
  const redact = (text: string) => text.replace(/[^\s,;:<>()"'[\]]+@[^\s,;:<>()"'[\]]+/g, '<address>');
  return { name, message: redact(message), ...(stack ? { stack: redact(stack) } : {}) };
}

/** Forgets the client. Tests only (after resetConfigForTests, or a new AWS_ENDPOINT_URL_SESV2). */
export function resetMailerForTests(): void {
  ses?.destroy();
  ses = undefined;
}
