import type { MailContent } from '../../../../functions/domain/ready-mail';

/** One e-mail the fake mailer sent. */
export interface SentMail {
  to: string;
  content: MailContent;
}

/**
 * A recording mailer (adapters/mailer.ts `sendMail`): keeps every message it is asked to send, answers a message id,
 * and fails with {@link refuseWith} when set (an SES error is an `Error` whose `name` is SES's error code).
 */
export class RecordingMailer {
  readonly sent: SentMail[] = [];
  /** The error every send fails with, e.g. SES's `MessageRejected`. */
  refuseWith: Error | undefined;

  readonly sendMail = async (to: string, content: MailContent): Promise<string | null> => {
    if (this.refuseWith) throw this.refuseWith;
    this.sent.push({ to, content });
    return `message-${this.sent.length}`;
  };
}

/** An error named as SES names it (`MessageRejected`, `TooManyRequestsException`, …). */
export function sesError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}
