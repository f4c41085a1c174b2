import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { holdIdleConnections } from '../../support/http';
import type { LocalLog } from '../../support/log';
import { acceptSendEmail, SesError, type SesAccount } from './send-email';

/*
 * The local Amazon SES v2 API (docs/architecture.md §5): `SendEmail` over SES v2's REST JSON protocol, so the
 * handlers send mail with the real `@aws-sdk/client-sesv2` client (AWS_ENDPOINT_URL_SESV2 points it here) exactly as
 * in the cloud. Each accepted message is relayed over SMTP to the local mail catcher (MailDev), where a developer
 * reads it in the web inbox and tests read it from its REST API. Like SES it answers `{ MessageId }`, refuses bad
 * input with SES's error types (`x-amzn-ErrorType` and `{ message }`), refuses a sender that is not a verified
 * identity (and, in the sandbox, an unverified recipient) with 400 `MessageRejected` as SES does (send-email.ts), and
 * throttles beyond the account's maximum send rate with 429 `TooManyRequestsException` (the SDK retries those).
 */

/** SES's starting maximum send rate of an account out of the sandbox, in messages per second. */
export const DEFAULT_MAX_SEND_RATE = 14;
/** The sandbox's maximum send rate: 1 message per second (https://docs.aws.amazon.com/ses/latest/dg/quotas.html). */
export const SANDBOX_MAX_SEND_RATE = 1;
/** Largest request body accepted (SES v2's 40 MB message limit, base64 included). */
const MAX_BODY_BYTES = 40 * 1024 * 1024;

/** One message the stand-in accepted (and relayed). */
export interface SentEmail {
  messageId: string;
  from: string;
  recipients: string[];
  configurationSet?: string;
}

/** A running SES v2 stand-in. */
export interface SesStandIn {
  /** The endpoint to give the SDK (`AWS_ENDPOINT_URL_SESV2`), e.g. `http://127.0.0.1:4575`. */
  endpoint: string;
  /** Every accepted message, oldest first. */
  sent: SentEmail[];
  /** The account the stand-in checks requests against; tests may change its identities or sandbox status. */
  account: SesAccount;
  stop(): Promise<void>;
}

/** Options of {@link startSesStandIn}. */
export interface SesStandInOptions extends Partial<Omit<SesAccount, 'verifiedIdentities'>> {
  /**
   * The verified identities, addresses or domains (the local stack verifies its sender, MAIL_FROM, unless
   * SES_VERIFIED_IDENTITIES says otherwise). Required: as in SES, nothing is verified by default.
   */
  verifiedIdentities: readonly string[];
  port: number;
  host: string;
  /** Where accepted messages are relayed, e.g. MailDev's `smtp://127.0.0.1:1025`. */
  smtpUrl: string;
  /**
   * Messages per second before 429 `TooManyRequestsException` (default {@link DEFAULT_MAX_SEND_RATE}, or
   * {@link SANDBOX_MAX_SEND_RATE} in the sandbox).
   */
  maxSendRate?: number;
  log: LocalLog;
}

/** SES message ids look like `0100018c…-<uuid>-000000`. */
const newMessageId = () => `0100${Date.now().toString(16).padStart(12, '0')}-${randomUUID()}-000000`;

function answer(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const requestId = randomUUID();
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': requestId,
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SesError(400, 'BadRequestException', 'Message too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
  } catch {
    throw new SesError(400, 'SerializationException', 'Request body is not valid JSON.');
  }
}

/** A token bucket refilled at `rate` per second, holding one second's worth (at least one): SES's "maximum send rate". */
function sendRateLimiter(rate: number): () => boolean {
  const capacity = Math.max(1, rate);
  let tokens = capacity;
  let at = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(capacity, tokens + ((now - at) / 1000) * rate);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * Starts the SES v2 stand-in on `host:port` (0 = a free port), relaying to `smtpUrl`. Requests must be SigV4-signed
 * (any credentials: the signature itself is not checked, as with the other emulators).
 */
export async function startSesStandIn(options: SesStandInOptions): Promise<SesStandIn> {
  const account: SesAccount = {
    region: options.region ?? 'us-east-1',
    verifiedIdentities: options.verifiedIdentities,
    sandbox: options.sandbox ?? false,
    configurationSets: options.configurationSets ?? [],
  };
  const relay = nodemailer.createTransport(options.smtpUrl);
  const allow = sendRateLimiter(
    options.maxSendRate ?? (account.sandbox ? SANDBOX_MAX_SEND_RATE : DEFAULT_MAX_SEND_RATE),
  );
  const sent: SentEmail[] = [];

  async function sendEmail(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const message = acceptSendEmail(await readJson(req), account);
    if (!allow()) throw new SesError(429, 'TooManyRequestsException', 'Maximum sending rate exceeded.');
    const messageId = newMessageId();
    await relay.sendMail({
      ...message.mail,
      messageId: `<${messageId}@email.amazonses.com>`,
      ...(message.configurationSet
        ? {
            headers: {
              ...(message.mail.headers as object),
              'X-SES-CONFIGURATION-SET': message.configurationSet,
            },
          }
        : {}),
    });
    sent.push({
      messageId,
      from: message.from,
      recipients: message.recipients,
      configurationSet: message.configurationSet,
    });
    answer(res, 200, { MessageId: messageId });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (!req.headers.authorization?.startsWith('AWS4-HMAC-SHA256 ')) {
      answer(res, 403, { message: 'Missing Authentication Token' }, 'MissingAuthenticationTokenException');
      return;
    }
    if (req.method !== 'POST' || path !== '/v2/email/outbound-emails') {
      answer(
        res,
        404,
        { message: `No operation matches ${req.method} ${path}.` },
        'UnknownOperationException',
      );
      return;
    }
    sendEmail(req, res).catch((error: unknown) => {
      if (error instanceof SesError) {
        answer(res, error.status, { message: error.message }, error.type);
        return;
      }
      options.log.error(`SMTP relay failed: ${String(error)}`);
      answer(res, 500, { message: 'Internal service error.' }, 'InternalFailure');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    holdIdleConnections(server);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${options.host}:${port}`;
  options.log.info(
    `SES v2 API on ${endpoint}, relaying to ${options.smtpUrl}; verified: ${account.verifiedIdentities.join(', ') || 'nothing'}` +
      (account.sandbox ? ' (sandbox: recipients must be verified too)' : ''),
  );
  return {
    endpoint,
    sent,
    account,
    stop: async () => {
      relay.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
