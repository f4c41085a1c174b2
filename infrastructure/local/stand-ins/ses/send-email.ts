import addressparser from 'nodemailer/lib/addressparser';
import type { SendMailOptions } from 'nodemailer';

/*
 * Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`, REST JSON) as the stand-in reads it: the request's
 * checks and their answers, and the message the stand-in relays over SMTP. Error types, statuses and wording follow
 * what SES answers (Amazon SES API v2 reference, SendEmail "Errors": MessageRejected is HTTP 400; observed answers
 * such as `BadRequestException: Invalid email address .` for an empty recipient).
 *
 * Verified identities (https://docs.aws.amazon.com/ses/latest/dg/verify-addresses-and-domains.html): the sender must
 * belong to one — an address identity covers that address, a domain identity every address of the domain and of its
 * subdomains (https://docs.aws.amazon.com/ses/latest/dg/creating-identities.html). In the sandbox every account
 * starts in, each recipient must be verified too, except the mailbox simulator's addresses
 * (https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html). Otherwise SES answers 400
 * `MessageRejected` "Email address is not verified. The following identities failed the check in region
 * <REGION>: <identity>, <identity>" (the region upper-cased, each identity as the request wrote it; e.g. "… in region
 * US-WEST-2: a@example.org, b@example.org" in danilop/LambdAuth#64, "… in region US-EAST-1: test@xyz.com" for an
 * unverified recipient in mageplaza/magento-2-smtp#211).
 */

/** Most recipients (To + Cc + Bcc) of one message that SES accepts. */
export const MAX_RECIPIENTS = 50;

/** An SES error answer: HTTP status, `x-amzn-ErrorType`, and the `message` of the JSON body. */
export class SesError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new SesError(400, 'BadRequestException', message);

/** The mailbox simulator's domain: its addresses count as verified recipients in the sandbox. */
export const MAILBOX_SIMULATOR_DOMAIN = 'simulator.amazonses.com';

/** What the stand-in knows of the account: its verified identities, sandbox status and configuration sets. */
export interface SesAccount {
  region: string;
  /** Verified identities, addresses (`headshots@example.com`) or domains (`example.com`). */
  verifiedIdentities: readonly string[];
  /** In the SES sandbox: every recipient must be verified too (or a mailbox simulator address). */
  sandbox: boolean;
  /** Configuration sets that exist; a request naming another one gets `NotFoundException`. */
  configurationSets: readonly string[];
}

/** A message accepted by `SendEmail`: what goes to the SMTP relay. */
export interface AcceptedMessage {
  from: string;
  /** Every envelope recipient (To, Cc and Bcc). */
  recipients: string[];
  configurationSet?: string;
  /** nodemailer options for the relay (the Message-ID is added by the server). */
  mail: SendMailOptions;
}

interface Content {
  Data?: unknown;
  Charset?: unknown;
}
interface SendEmailRequest {
  FromEmailAddress?: unknown;
  Destination?: { ToAddresses?: unknown; CcAddresses?: unknown; BccAddresses?: unknown };
  ReplyToAddresses?: unknown;
  ConfigurationSetName?: unknown;
  Content?: {
    Simple?: {
      Subject?: Content;
      Body?: { Text?: Content; Html?: Content };
      Headers?: unknown;
    };
    Raw?: { Data?: unknown };
    Template?: { TemplateName?: unknown; TemplateArn?: unknown };
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of strings, or the validation answer SES gives for the member. */
function stringList(value: unknown, member: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw badRequest(
      `1 validation error detected: Value at '${member}' failed to satisfy constraint: Member must be a list of strings`,
    );
  return value as string[];
}

/** The bare address of `Name <a@b>` or `a@b`; `BadRequestException` when it is not one mailbox. */
export function mailboxOf(value: string): string {
  const parsed = addressparser(value, { flatten: true });
  const address = parsed.length === 1 ? parsed[0]!.address : undefined;
  if (!address || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address))
    throw badRequest(`Invalid email address ${value}.`);
  return address;
}

/**
 * Whether the bare `address` belongs to one of `identities`, as SES matches them: an address identity is that address
 * (case-insensitive), a domain identity covers its addresses and those of its subdomains.
 */
export function isVerified(address: string, identities: readonly string[]): boolean {
  const lower = address.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf('@') + 1);
  return identities.some((identity) => {
    const id = identity.trim().toLowerCase();
    return id === lower || (!id.includes('@') && (id === domain || domain.endsWith(`.${id}`)));
  });
}

/**
 * The identities of a request that fail SES's verification check, as the request wrote them: the sender unless it is
 * verified and, in the sandbox, each recipient that is neither verified nor a mailbox simulator address.
 */
function unverified(
  sender: { written: string; address: string },
  recipients: readonly { written: string; address: string }[],
  account: SesAccount,
): string[] {
  const failed = isVerified(sender.address, account.verifiedIdentities) ? [] : [sender.written];
  if (account.sandbox) {
    for (const recipient of recipients) {
      const simulator = recipient.address.toLowerCase().endsWith(`@${MAILBOX_SIMULATOR_DOMAIN}`);
      if (!simulator && !isVerified(recipient.address, account.verifiedIdentities))
        failed.push(recipient.written);
    }
  }
  return [...new Set(failed)];
}

function text(part: Content | undefined, member: string): string | undefined {
  if (part === undefined) return undefined;
  if (!isObject(part) || typeof part.Data !== 'string')
    throw badRequest(
      `1 validation error detected: Value null at '${member}.data' failed to satisfy constraint: Member must not be null`,
    );
  return part.Data;
}

/** The Simple content as nodemailer options. */
function simpleMail(
  simple: NonNullable<NonNullable<SendEmailRequest['Content']>['Simple']>,
): SendMailOptions {
  const subject = text(simple.Subject, 'content.simple.subject');
  if (subject === undefined)
    throw badRequest(
      `1 validation error detected: Value null at 'content.simple.subject' failed to satisfy constraint: Member must not be null`,
    );
  if (!isObject(simple.Body))
    throw badRequest(
      `1 validation error detected: Value null at 'content.simple.body' failed to satisfy constraint: Member must not be null`,
    );
  const plain = text(simple.Body.Text, 'content.simple.body.text');
  const html = text(simple.Body.Html, 'content.simple.body.html');
  if (plain === undefined && html === undefined)
    throw badRequest('Message body must have at least one part.');
  const headers = Array.isArray(simple.Headers)
    ? (simple.Headers as unknown[])
        .filter(isObject)
        .map((h) => ({ key: String(h.Name), value: String(h.Value) }))
    : [];
  return { subject, text: plain, html, headers };
}

/** Addresses of one header of a raw MIME message (`To`, `Cc`, `Bcc`, `From`), unfolded. */
function headerAddresses(raw: string, name: string): string[] {
  const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (!line) return [];
  return addressparser(line.slice(name.length + 1), { flatten: true }).map((a) => a.address);
}

/**
 * Checks a `SendEmail` body as SES does and returns the message to relay.
 *
 * @throws {SesError} `BadRequestException` (400) for a malformed request, an invalid address or more than 50
 *   recipients; `MessageRejected` (400) for a sender outside the verified identities and, in the sandbox, an
 *   unverified recipient; `NotFoundException` (404) for
 *   an unknown configuration set or any template (the stand-in stores none)
 */
export function acceptSendEmail(body: unknown, account: SesAccount): AcceptedMessage {
  if (!isObject(body)) throw badRequest('Request body must be a JSON object.');
  const request = body as SendEmailRequest;
  const content = request.Content;
  if (!isObject(content))
    throw badRequest(
      `1 validation error detected: Value null at 'content' failed to satisfy constraint: Member must not be null`,
    );
  const destination = isObject(request.Destination) ? request.Destination : {};
  const writtenTo = [
    ...stringList(destination.ToAddresses, 'destination.toAddresses'),
    ...stringList(destination.CcAddresses, 'destination.ccAddresses'),
    ...stringList(destination.BccAddresses, 'destination.bccAddresses'),
  ];
  const to = stringList(destination.ToAddresses, 'destination.toAddresses').map(mailboxOf);
  const cc = stringList(destination.CcAddresses, 'destination.ccAddresses').map(mailboxOf);
  const bcc = stringList(destination.BccAddresses, 'destination.bccAddresses').map(mailboxOf);
  const replyTo = stringList(request.ReplyToAddresses, 'replyToAddresses').map(mailboxOf);
  const configurationSet =
    typeof request.ConfigurationSetName === 'string' ? request.ConfigurationSetName : undefined;
  if (configurationSet !== undefined && !account.configurationSets.includes(configurationSet))
    throw new SesError(404, 'NotFoundException', `Configuration set <${configurationSet}> does not exist.`);
  if (isObject(content.Template)) {
    const name = String(content.Template.TemplateName ?? content.Template.TemplateArn ?? '');
    throw new SesError(404, 'NotFoundException', `Template ${name} does not exist.`);
  }

  let mail: SendMailOptions;
  let from = typeof request.FromEmailAddress === 'string' ? request.FromEmailAddress : undefined;
  let recipients = [...to, ...cc, ...bcc];
  let written = writtenTo;
  if (isObject(content.Raw)) {
    if (typeof content.Raw.Data !== 'string')
      throw badRequest(
        `1 validation error detected: Value null at 'content.raw.data' failed to satisfy constraint: Member must not be null`,
      );
    const raw = Buffer.from(content.Raw.Data, 'base64').toString('utf8');
    from ??= headerAddresses(raw, 'From')[0];
    if (recipients.length === 0) {
      written = ['To', 'Cc', 'Bcc'].flatMap((h) => headerAddresses(raw, h));
      recipients = written.map(mailboxOf);
    }
    mail = { raw };
  } else if (isObject(content.Simple)) {
    mail = {
      ...simpleMail(content.Simple),
      to,
      cc,
      bcc,
      replyTo,
    };
  } else {
    throw badRequest('Content must contain exactly one of Simple, Raw or Template.');
  }
  if (from === undefined) throw badRequest('Missing required parameter FromEmailAddress.');
  const sender = mailboxOf(from);
  if (recipients.length === 0) throw badRequest('Invalid email address .');
  if (recipients.length > MAX_RECIPIENTS) throw badRequest(`Recipient count exceeds ${MAX_RECIPIENTS}.`);
  const failed = unverified(
    { written: from, address: sender },
    recipients.map((address, i) => ({ written: written[i] ?? address, address })),
    account,
  );
  if (failed.length > 0) {
    throw new SesError(
      400,
      'MessageRejected',
      `Email address is not verified. The following identities failed the check in region ${account.region.toUpperCase()}: ${failed.join(', ')}`,
    );
  }
  return {
    from: sender,
    recipients,
    configurationSet,
    mail: { ...mail, from, envelope: { from: sender, to: recipients } },
  };
}
