import { SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMailRefused } from '../../functions/adapters/mailer';
import { caughtMail } from '../../infrastructure/local/stand-ins/ses/maildev';
import type { SesStandIn } from '../../infrastructure/local/stand-ins/ses/server';
import { useLocalMail } from '../helpers/local-mail';

/*
 * The SES v2 stand-in (infrastructure/local/stand-ins/ses/server.ts) spoken to by the real @aws-sdk/client-sesv2
 * client: SendEmail's answer, SES's error types for bad input, MessageRejected for unverified identities (sender
 * always, recipients in the sandbox), the send-rate throttle, and the relay into MailDev.
 */

const mail = useLocalMail();
let ses: SesStandIn;
let throttled: SesStandIn;
let sandbox: SesStandIn;

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
  ses = await mail.startSes({
    region: 'eu-west-1',
    verifiedIdentities: ['example.com'],
    configurationSets: ['headshots-mail'],
  });
  throttled = await mail.startSes({
    verifiedIdentities: ['example.com'],
    maxSendRate: 0.01,
  });
  sandbox = await mail.startSes({
    region: 'us-east-1',
    verifiedIdentities: ['headshots@example.com', 'team.example.org'],
    sandbox: true,
    maxSendRate: 100,
  });
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
    const caught = (await caughtMail(mail.catcher.inboxUrl)).filter((m) =>
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

  it('sends only from a verified identity, matched as SES matches them', async () => {
    // A domain identity covers its addresses and its subdomains' addresses; case does not matter.
    for (const from of ['news@example.com', 'Ops <ops@mail.EXAMPLE.com>']) {
      await expect(
        client(ses.endpoint).send(new SendEmailCommand(simple({ FromEmailAddress: from }))),
      ).resolves.toMatchObject({ MessageId: expect.any(String) });
    }
    // Not a parent domain, a look-alike or an address of another domain.
    for (const from of ['a@notexample.com', 'Someone <a@example.com.evil.net>']) {
      expect(await failure(ses.endpoint, simple({ FromEmailAddress: from }))).toEqual({
        name: 'MessageRejected',
        status: 400,
        message: `Email address is not verified. The following identities failed the check in region EU-WEST-1: ${from}`,
      });
    }
    // An address identity covers that address only.
    expect(
      await failure(
        sandbox.endpoint,
        simple({
          FromEmailAddress: 'other@example.com',
          Destination: { ToAddresses: ['headshots@example.com'] },
        }),
      ),
    ).toMatchObject({ name: 'MessageRejected' });
  });

  it('answers MessageRejected with SES’s status, x-amzn-ErrorType and JSON body', async () => {
    // The stand-in checks that a request is SigV4-signed, not the signature (as the other emulators).
    const res = await fetch(`${ses.endpoint}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20261126/eu-west-1/ses/aws4_request',
      },
      body: JSON.stringify(simple({ FromEmailAddress: 'nobody@elsewhere.net' })),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('MessageRejected');
    expect(res.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({
      message:
        'Email address is not verified. The following identities failed the check in region EU-WEST-1: nobody@elsewhere.net',
    });
  });

  it('in the sandbox, refuses each unverified recipient too, but not the mailbox simulator', async () => {
    const from = 'Headshot Studio <headshots@example.com>';
    const sent = async (to: string[]) =>
      (
        await client(sandbox.endpoint).send(
          new SendEmailCommand(simple({ FromEmailAddress: from, Destination: { ToAddresses: to } })),
        )
      ).MessageId;
    expect(
      await sent(['headshots@example.com', 'ann@team.example.org', 'success@simulator.amazonses.com']),
    ).toEqual(expect.any(String));
    expect(
      await failure(
        sandbox.endpoint,
        simple({
          FromEmailAddress: from,
          Destination: {
            ToAddresses: ['Ada <ada@example.org>', 'ann@team.example.org'],
            BccAddresses: ['bob@example.net'],
          },
        }),
      ),
    ).toEqual({
      name: 'MessageRejected',
      status: 400,
      message:
        'Email address is not verified. The following identities failed the check in region US-EAST-1: Ada <ada@example.org>, bob@example.net',
    });
    // The sender first, then the recipients, when both fail.
    expect(
      (
        await failure(
          sandbox.endpoint,
          simple({ FromEmailAddress: 'x@elsewhere.net', Destination: { ToAddresses: ['y@example.org'] } }),
        )
      ).message,
    ).toMatch(/US-EAST-1: x@elsewhere\.net, y@example\.org$/);
    // Out of the sandbox the same recipients are fine.
    sandbox.account.sandbox = false;
    try {
      expect(await sent(['ada@example.org'])).toEqual(expect.any(String));
    } finally {
      sandbox.account.sandbox = true;
    }
    expect(sandbox.sent.map((m) => m.recipients)).toEqual([
      ['headshots@example.com', 'ann@team.example.org', 'success@simulator.amazonses.com'],
      ['ada@example.org'],
    ]);
  });

  it('gives errors the mailer tells apart: setup refusals (alarmed) from bad input and throttling', async () => {
    const caught = async (endpoint: string, input: SendEmailCommandInput) => {
      try {
        await client(endpoint).send(new SendEmailCommand(input));
      } catch (error) {
        return error;
      }
      throw new Error('SendEmail succeeded');
    };
    expect(isMailRefused(await caught(ses.endpoint, simple({ FromEmailAddress: 'a@elsewhere.net' })))).toBe(
      true,
    );
    expect(
      isMailRefused(await caught(sandbox.endpoint, simple({ FromEmailAddress: 'headshots@example.com' }))),
    ).toBe(true);
    expect(isMailRefused(await caught(ses.endpoint, simple({ ConfigurationSetName: 'nope' })))).toBe(true);
    expect(isMailRefused(await caught(ses.endpoint, simple({ Destination: { ToAddresses: [''] } })))).toBe(
      false,
    );
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
