import { SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caughtMail,
  startMailCatcher,
  type MailCatcher,
} from '../../infrastructure/local/stand-ins/ses/maildev';
import { startSesStandIn, type SesStandIn } from '../../infrastructure/local/stand-ins/ses/server';
import { findFreePort } from '../../infrastructure/local/support/ports';

/*
 * The SES v2 stand-in (infrastructure/local/stand-ins/ses/server.ts) spoken to by the real @aws-sdk/client-sesv2
 * client: SendEmail's answer, SES's error types for bad input, the send-rate throttle, and the relay into MailDev.
 */

const quiet = { info: () => undefined, error: () => undefined };
let mail: MailCatcher;
let ses: SesStandIn;
let throttled: SesStandIn;

const client = (endpoint: string) =>
  new SESv2Client({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

const simple = (overrides: Partial<SendEmailCommandInput> = {}): SendEmailCommandInput => ({
  FromEmailAddress: 'Headshot Studio <headshots@example.com>',
  Destination: { ToAddresses: ['ada@example.org'] },
  Content: {
    Simple: {
      Subject: { Data: 'Your headshots are ready!', Charset: 'UTF-8' },
      Body: { Text: { Data: 'plain body', Charset: 'UTF-8' }, Html: { Data: '<p>html body</p>' } },
    },
  },
  ...overrides,
});

/** The SDK error SES's answer to `input` becomes: its name (from `x-amzn-ErrorType`), status and message. */
async function failure(endpoint: string, input: SendEmailCommandInput) {
  try {
    await client(endpoint).send(new SendEmailCommand(input));
  } catch (error) {
    const e = error as Error & { $metadata: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata.httpStatusCode, message: e.message };
  }
  throw new Error('SendEmail succeeded');
}

beforeAll(async () => {
  mail = await startMailCatcher({
    smtpPort: await findFreePort(),
    webPort: await findFreePort(),
    log: quiet,
  });
  ses = await startSesStandIn({
    port: 0,
    host: '127.0.0.1',
    smtpUrl: mail.smtpUrl,
    region: 'eu-west-1',
    verifiedIdentities: ['example.com'],
    configurationSets: ['headshots-mail'],
    log: quiet,
  });
  throttled = await startSesStandIn({
    port: 0,
    host: '127.0.0.1',
    smtpUrl: mail.smtpUrl,
    maxSendRate: 0.01,
    log: quiet,
  });
});
afterAll(async () => {
  await ses?.stop();
  await throttled?.stop();
  await mail?.stop();
});

describe('SES v2 stand-in', () => {
  it('answers SendEmail with a MessageId and relays the message into MailDev', async () => {
    const answer = await client(ses.endpoint).send(
      new SendEmailCommand(
        simple({
          Destination: { ToAddresses: ['ada@example.org'], CcAddresses: ['Bob <bob@example.org>'] },
          ReplyToAddresses: ['support@example.com'],
          ConfigurationSetName: 'headshots-mail',
        }),
      ),
    );
    expect(answer.MessageId).toMatch(/^0100[0-9a-f]{12}-[0-9a-f-]{36}-000000$/);
    expect(ses.sent.at(-1)).toEqual({
      messageId: answer.MessageId,
      from: 'headshots@example.com',
      recipients: ['ada@example.org', 'bob@example.org'],
      configurationSet: 'headshots-mail',
    });
    const caught = (await caughtMail(mail.inboxUrl)).filter((m) =>
      m.to.some((t) => t.address === 'ada@example.org'),
    );
    expect(caught).toHaveLength(1);
    expect(caught[0]).toMatchObject({
      subject: 'Your headshots are ready!',
      from: [{ address: 'headshots@example.com', name: 'Headshot Studio' }],
    });
    expect(caught[0]!.text.trim()).toBe('plain body');
    expect(caught[0]!.html).toContain('<p>html body</p>');
  });

  it('refuses bad input with the error types SES answers', async () => {
    expect(await failure(ses.endpoint, simple({ Destination: { ToAddresses: [''] } }))).toEqual({
      name: 'BadRequestException',
      status: 400,
      message: 'Invalid email address .',
    });
    expect(await failure(ses.endpoint, simple({ Destination: { ToAddresses: ['nobody'] } }))).toMatchObject({
      name: 'BadRequestException',
      status: 400,
    });
    expect(await failure(ses.endpoint, simple({ Destination: {} }))).toMatchObject({
      name: 'BadRequestException',
    });
    const tooMany = Array.from({ length: 51 }, (_, i) => `r${i}@example.org`);
    expect(await failure(ses.endpoint, simple({ Destination: { BccAddresses: tooMany } }))).toEqual({
      name: 'BadRequestException',
      status: 400,
      message: 'Recipient count exceeds 50.',
    });
    expect(await failure(ses.endpoint, { ...simple(), Content: undefined })).toMatchObject({
      name: 'BadRequestException',
      message: expect.stringContaining("'content'"),
    });
    expect(await failure(ses.endpoint, simple({ FromEmailAddress: 'someone@elsewhere.net' }))).toEqual({
      name: 'MessageRejected',
      status: 400,
      message:
        'Email address is not verified. The following identities failed the check in region EU-WEST-1: someone@elsewhere.net',
    });
    expect(await failure(ses.endpoint, simple({ ConfigurationSetName: 'nope' }))).toMatchObject({
      name: 'NotFoundException',
      status: 404,
    });
    expect(
      await failure(
        ses.endpoint,
        simple({ Content: { Template: { TemplateName: 'ready', TemplateData: '{}' } } }),
      ),
    ).toEqual({ name: 'NotFoundException', status: 404, message: 'Template ready does not exist.' });
  });

  it('throttles beyond the maximum send rate with 429 TooManyRequestsException', async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        await client(throttled.endpoint).send(new SendEmailCommand(simple()));
        names.push('sent');
      } catch (error) {
        names.push((error as Error).name);
      }
    }
    // One message per 100 s: the first is sent at once, the next ones are refused.
    expect(names).toEqual(['sent', 'TooManyRequestsException', 'TooManyRequestsException']);
  });

  it('refuses unsigned requests', async () => {
    const res = await fetch(`${ses.endpoint}/v2/email/outbound-emails`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });
});
