import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { resetMailerForTests } from '../../functions/adapters/mailer';
import {
  caughtMail,
  startMailCatcher,
  type MailCatcher,
} from '../../infrastructure/local/stand-ins/ses/maildev';
import { findFreePort } from '../../infrastructure/local/support/ports';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import {
  openAiErrors,
  startFakeOpenAi,
  startGenerationStack,
  type FakeOpenAi,
  type GenerationStack,
} from '../helpers/generation-stack';

/*
 * The "headshots ready" e-mail end to end on the local stack: the workflow's NotifyReady/NotifyFailed task sends it
 * over SMTP to the real mail catcher `npm start` runs (MailDev), and the test reads it back from MailDev's REST API —
 * as a developer reads it in the web inbox.
 */

const { runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

let fake: FakeOpenAi;
let mail: MailCatcher;
let stack: GenerationStack;
const globalSmtpUrl = process.env.MAIL_SMTP_URL;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  mail = await startMailCatcher({
    smtpPort: await findFreePort(),
    webPort: await findFreePort(),
    log: { info: () => undefined, error: () => undefined },
  });
  stack = await startGenerationStack({
    env: {
      IMAGE_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-headshots',
      OPENAI_BASE_URL: fake.baseURL,
      MAIL_SMTP_URL: mail.smtpUrl,
      SITE_ORIGIN: 'http://localhost:5173',
    },
    ...pool,
  });
  resetMailerForTests();
});

afterAll(async () => {
  await stack?.stop();
  await mail?.stop();
  await fake?.close();
  if (globalSmtpUrl === undefined) delete process.env.MAIL_SMTP_URL;
  else process.env.MAIL_SMTP_URL = globalSmtpUrl;
});

afterEach(() => {
  fake.answer = () => 'image';
});

async function generateFor(user: TestUser): Promise<string> {
  const keys = await uploadPhotos(stack.gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);
  const res = await api(stack.gatewayUrl, user.idToken, 'POST', '/api/generations', {
    style: 'professional',
    background: 'office',
    referenceKeys: keys,
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await pollGeneration(stack.gatewayUrl, user.idToken, id);
  await stack.settled();
  return id;
}

const mailTo = async (address: string) =>
  (await caughtMail(mail.inboxUrl)).filter((m) => m.to.some((t) => t.address === address));

describe('the ready e-mail', () => {
  it('lands in the local inbox with a subject, text and HTML bodies and a link to the dashboard', async () => {
    const user = await createTestUser(pool);
    const me = await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    expect(await me.json()).toMatchObject({ emailWhenReady: true });
    await generateFor(user);

    const [message, ...more] = await mailTo(user.email);
    expect(more).toEqual([]);
    expect(message!.subject).toBe('Your headshots are ready!');
    expect(message!.text).toContain('Your 6 headshots are ready to view and download.');
    expect(message!.text).toContain('http://localhost:5173/dashboard');
    expect(message!.html).toContain('href="http://localhost:5173/dashboard"');
  });

  it('says what was refunded when only some headshots were made', async () => {
    const user = await createTestUser(pool);
    await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    fake.answer = (call) => (call.index % 3 === 0 ? openAiErrors.moderation : 'image');
    fake.calls.length = 0;
    await generateFor(user);
    const [message] = await mailTo(user.email);
    expect(message!.subject).toBe('4 headshots ready, 2 credits refunded');
    expect(message!.text).toContain('2 credits went back to your balance');
  });

  it('is not sent when the customer turned it off', async () => {
    const user = await createTestUser(pool);
    await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    const off = await api(stack.gatewayUrl, user.idToken, 'PATCH', '/api/me', { emailWhenReady: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ emailWhenReady: false });
    expect(await (await api(stack.gatewayUrl, user.idToken, 'GET', '/api/me')).json()).toMatchObject({
      emailWhenReady: false,
    });
    await generateFor(user);
    expect(await mailTo(user.email)).toEqual([]);

    const bad = await api(stack.gatewayUrl, user.idToken, 'PATCH', '/api/me', {
      emailWhenReady: 'no',
      credits: 9,
    });
    expect(bad.status).toBe(400);
  });
});
