import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetMailerForTests } from '../../functions/adapters/mailer';
import { resetConfigForTests } from '../../functions/config/settings';
import { createTeam } from '../../functions/use-cases/teams';
import { resendInvitation, sendInvitations } from '../../functions/use-cases/send-invitations';
import { previewInvite } from '../../functions/use-cases/preview-invite';
import { caughtMail } from '../../infrastructure/local/stand-ins/ses/maildev';
import { LOCAL_CONFIGURATION_SET } from '../../infrastructure/local/stand-ins/ses/local-mail';
import type { SesStandIn } from '../../infrastructure/local/stand-ins/ses/server';
import { useLocalMail } from '../helpers/local-mail';

/*
 * Team invitations through the real mailer (SES v2 SendEmail) into the SES stand-in — strict as SES: the sender must
 * be a verified identity, the configuration set must exist — relayed to MailDev, with the items in DynamoDB Local.
 * The use cases run in-process with their real adapters; the routes' authorization is teams-access.test.ts's.
 */

const mail = useLocalMail();
let ses: SesStandIn;
const saved = { ...process.env };

beforeAll(async () => {
  ses = await mail.startSes({
    verifiedIdentities: ['headshot.studio.local'],
    configurationSets: [LOCAL_CONFIGURATION_SET],
  });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SESV2: ses.endpoint,
    MAIL_FROM: 'Headshot Studio <headshots@headshot.studio.local>',
    MAIL_CONFIGURATION_SET: LOCAL_CONFIGURATION_SET,
    SITE_ORIGIN: 'http://localhost:5173',
  });
  resetConfigForTests();
  resetMailerForTests();
});

afterAll(() => {
  for (const key of ['AWS_ENDPOINT_URL_SESV2', 'MAIL_FROM', 'MAIL_CONFIGURATION_SET', 'SITE_ORIGIN']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetConfigForTests();
  resetMailerForTests();
});

const inbox = async (address: string) =>
  (await caughtMail(mail.catcher.inboxUrl)).filter((m) => m.to.some((t) => t.address === address));

describe('team invitation e-mails', () => {
  it('sends each invited address its own link, which previews the team; a resend turns the first link off', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const owner = { sub: `owner-${suffix}`, email: `owner-${suffix}@acme.test` };
    const team = await createTeam(owner, { name: 'Acme', allowedDomains: ['acme.test'] });
    const grace = `grace-${suffix}@acme.test`;
    const result = await sendInvitations(team.teamId, owner, {
      text: `name,email\nGrace,${grace}\nX,x-${suffix}@other.test`,
    });
    expect(result).toMatchObject({ sent: [grace], failed: [], wrongDomain: [`x-${suffix}@other.test`] });

    const [message, ...more] = await inbox(grace);
    expect(more).toEqual([]);
    expect(message!.subject).toBe("You're invited to Acme on Headshot Studio");
    expect(message!.text).toContain(
      `owner-${suffix}@acme.test invited you to make professional headshots with Acme.`,
    );
    const link = /http:\/\/localhost:5173\/join\/([A-Za-z0-9_-]{43})/.exec(message!.text)?.[1];
    expect(link).toBeDefined();
    expect(message!.html).toContain(`href="http://localhost:5173/join/${link}"`);
    expect(message!.from).toEqual([{ address: 'headshots@headshot.studio.local', name: 'Headshot Studio' }]);
    expect(ses.sent.filter((s) => s.recipients.includes(grace))).toHaveLength(1);
    expect(await previewInvite(link!)).toEqual({
      teamName: 'Acme',
      status: 'valid',
      requiredDomains: [],
      personal: true,
    });

    await resendInvitation(team.teamId, owner, grace);
    const both = await inbox(grace);
    expect(both).toHaveLength(2);
    expect(await previewInvite(link!)).toMatchObject({ status: 'INVITE_REVOKED' });
  });
});
