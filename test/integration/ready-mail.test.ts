import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { grantCredits } from '../../functions/adapters/ledger';
import { resetMailerForTests } from '../../functions/adapters/mailer';
import { caughtMail } from '../../infrastructure/local/stand-ins/ses/maildev';
import type { SesStandIn } from '../../infrastructure/local/stand-ins/ses/server';
import { LOCAL_CONFIGURATION_SET } from '../../infrastructure/local/stand-ins/ses/local-mail';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { useLocalMail } from '../helpers/local-mail';
import { api, fixturePhoto, pollGeneration, startGeneration, uploadPhotos } from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * The "headshots ready" e-mail end to end on the local stack: the workflow's NotifyReady/NotifyFailed task sends it
 * with the real SES v2 client to the SES stand-in, which relays it over SMTP to the real mail catcher `npm start` runs
 * (MailDev), and the test reads it back from MailDev's REST API — as a developer reads it in the web inbox.
 */

const { runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

const mail = useLocalMail();
let ses: SesStandIn;
const globalSesEndpoint = process.env.AWS_ENDPOINT_URL_SESV2;

// Registered before the generation stack, so the mail path is up when the stack reads AWS_ENDPOINT_URL_SESV2.
beforeAll(async () => {
  // As in SES, only the verified sender's domain may send (the stack verifies MAIL_FROM's domain).
  ses = await mail.startSes({
    verifiedIdentities: ['headshot.studio.local'],
    // The configuration set every mail names (MAIL_CONFIGURATION_SET), as the local stack's SES knows it.
    configurationSets: [LOCAL_CONFIGURATION_SET],
  });
});
const gen = useOpenAiGenerationStack(() => ({
  AWS_ENDPOINT_URL_SESV2: ses.endpoint,
  MAIL_FROM: 'Headshot Studio <headshots@headshot.studio.local>',
  SITE_ORIGIN: 'http://localhost:5173',
}));
beforeAll(() => resetMailerForTests());

afterAll(async () => {
  resetMailerForTests();
  if (globalSesEndpoint === undefined) delete process.env.AWS_ENDPOINT_URL_SESV2;
  else process.env.AWS_ENDPOINT_URL_SESV2 = globalSesEndpoint;
});

/** Runs one generation for `user` to its end, workflow settled included; its final status. */
async function generateFor(user: TestUser): Promise<string> {
  const keys = await uploadPhotos(gen.stack.gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);
  const choice = { style: 'professional', background: 'office' };
  const id = await startGeneration(gen.stack.gatewayUrl, user, keys, choice);
  const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
  await gen.stack.settled();
  return final.status;
}

const mailTo = async (address: string) =>
  (await caughtMail(mail.catcher.inboxUrl)).filter((m) => m.to.some((t) => t.address === address));

describe('the ready e-mail', () => {
  it('lands in the local inbox with a subject, text and HTML bodies and a link to the dashboard', async () => {
    const user = await createTestUser(pool);
    const me = await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    expect(await me.json()).toMatchObject({ emailWhenReady: true });
    await generateFor(user);

    const [message, ...more] = await mailTo(user.email);
    expect(more).toEqual([]);
    expect(message!.subject).toBe('Your headshots are ready!');
    expect(message!.text).toContain('Your 6 headshots are ready to view and download.');
    expect(message!.text).toContain('http://localhost:5173/dashboard');
    expect(message!.html).toContain('href="http://localhost:5173/dashboard"');
    expect(message!.from).toEqual([{ address: 'headshots@headshot.studio.local', name: 'Headshot Studio' }]);
    // It went through SES's SendEmail (a MessageId answered), not around it.
    expect(ses.sent.filter((s) => s.recipients.includes(user.email))).toEqual([
      expect.objectContaining({ messageId: expect.stringMatching(/^0100[0-9a-f]{12}-/) }),
    ]);
  });

  it('is sent once per generation: "Regenerate (1 credit)" sends no other', async () => {
    const user = await createTestUser(pool);
    await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    const keys = await uploadPhotos(gen.stack.gatewayUrl, user.idToken, [fixturePhoto('obama.jpg')]);
    const id = await startGeneration(gen.stack.gatewayUrl, user, keys, {
      style: 'professional',
      background: 'office',
    });
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    await gen.stack.settled();
    expect(await mailTo(user.email)).toHaveLength(1);

    await grantCredits({ sub: user.sub, amount: 1, ref: `test-grant-${user.sub}` });
    const started = await api(
      gen.stack.gatewayUrl,
      user.idToken,
      'POST',
      `/api/headshots/${final.headshots[0]!.id}/regenerate`,
    );
    expect(started.status).toBe(202);
    const regeneration = await pollGeneration(
      gen.stack.gatewayUrl,
      user.idToken,
      ((await started.json()) as { id: string }).id,
    );
    await gen.stack.settled();
    expect(regeneration.final.status).toBe('succeeded');
    expect(await mailTo(user.email)).toHaveLength(1);
  });

  it('says what was refunded when only some headshots were made', async () => {
    const user = await createTestUser(pool);
    await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    gen.fake.answer = (call) => (call.index % 3 === 0 ? openAiErrors.moderation : 'image');
    gen.fake.calls.length = 0;
    await generateFor(user);
    const [message] = await mailTo(user.email);
    expect(message!.subject).toBe('4 headshots ready, 2 credits refunded');
    expect(message!.text).toContain('2 credits went back to your balance');
  });

  it('is refused by SES in the sandbox for an unverified customer: logged, and the generation still succeeds', async () => {
    const user = await createTestUser(pool);
    await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    ses.account.sandbox = true;
    try {
      expect(await generateFor(user)).toBe('succeeded');
    } finally {
      ses.account.sandbox = false;
    }
    expect(await mailTo(user.email)).toEqual([]);
    expect(ses.sent.filter((s) => s.recipients.includes(user.email))).toEqual([]);
  });

  it('is not sent when the customer turned it off', async () => {
    const user = await createTestUser(pool);
    await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me');
    const off = await api(gen.stack.gatewayUrl, user.idToken, 'PATCH', '/api/me', { emailWhenReady: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ emailWhenReady: false });
    expect(await (await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me')).json()).toMatchObject({
      emailWhenReady: false,
    });
    await generateFor(user);
    expect(await mailTo(user.email)).toEqual([]);

    const bad = await api(gen.stack.gatewayUrl, user.idToken, 'PATCH', '/api/me', {
      emailWhenReady: 'no',
      credits: 9,
    });
    expect(bad.status).toBe(400);
  });
});
