import { describe, expect, inject, it } from 'vitest';
import { queryAll } from '../../functions/adapters/support/query';
import { teamPk, userPk } from '../../functions/adapters/support/keys';
import { galleryPageSchema } from '../../functions/contracts/headshot';
import { teamHeadshotsPageSchema, teamHeadshotSchema } from '../../functions/contracts/teams';
import type { TestUser } from '../helpers/cognito';
import { signedUpUser } from '../helpers/gallery';
import { api } from '../helpers/generation';
import { seedTeamHeadshots } from '../helpers/team-headshots';

/*
 * Sharing and the team gallery end to end on the shared local stack (gateway, JWT authorizer, handlers, DynamoDB
 * Local, the local S3): a member shares their team headshots, the owner's gallery lists exactly those with working
 * links named for the ZIP, and every way a share ends — unsharing, deleting the headshot, "Delete my data", being
 * removed — leaves nothing of it in the team's partition nor the member's records (docs/teams.md "Sharing and the
 * team gallery"). Headshots are seeded, not generated: the test is about sharing.
 */

const { gatewayUrl } = inject('localStack');

async function call(user: TestUser, method: string, path: string, body?: unknown) {
  const res = await api(gatewayUrl, user.idToken, method, path, body);
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function ok(user: TestUser, method: string, path: string, body?: unknown) {
  const answer = await call(user, method, path, body);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.json;
}

/** The owner's team with `member` joined through a link. */
async function teamWith(owner: TestUser, member: TestUser): Promise<string> {
  const teamId = String((await ok(owner, 'POST', '/api/teams', { name: 'Acme' }))!.teamId);
  const created = (await ok(owner, 'POST', `/api/teams/${teamId}/invite-links`, {})) as { url: string };
  await ok(member, 'POST', `/api/invites/${created.url.split('/join/')[1]}/accept`);
  return teamId;
}

const gallery = async (user: TestUser, teamId: string) =>
  teamHeadshotsPageSchema.parse(await ok(user, 'GET', `/api/teams/${teamId}/headshots`));

/** The team's SHARED# items and the member's own SHARE# records. */
async function shareItems(teamId: string, sub: string) {
  const [team, own] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': teamPk(teamId), ':prefix': 'SHARED#' },
    }),
    queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': 'SHARE#' },
    }),
  ]);
  return { team: team.length, own: own.length };
}

const memberOf = async (owner: TestUser, teamId: string, sub: string) =>
  (
    (await ok(owner, 'GET', `/api/teams/${teamId}`)) as { admin: { members: { sub: string }[] } }
  ).admin.members.find((m) => m.sub === sub) as { state: string; sharedCount: number } | undefined;

describe('sharing with a team', () => {
  it(
    'shows the owner exactly what a member shares, with working links named <e-mail>/<file>, until it is unshared or deleted',
    { timeout: 90_000 },
    async () => {
      const [owner, member] = await Promise.all([signedUpUser(), signedUpUser()]);
      const teamId = await teamWith(owner, member);
      const [shared, kept, personal] = await Promise.all([
        seedTeamHeadshots(member.sub, teamId, 3, { withImages: 3 }),
        seedTeamHeadshots(member.sub, teamId, 1),
        seedTeamHeadshots(member.sub, undefined, 1),
      ]);
      const ownersOwn = await seedTeamHeadshots(owner.sub, teamId, 1);
      expect((await gallery(owner, teamId)).items).toEqual([]);

      // The member's own gallery names the team on the headshots it paid for, and no team on a personal one.
      const own = galleryPageSchema.parse(await ok(member, 'GET', '/api/headshots'));
      expect(own.items.filter((h) => h.teamId === teamId).map((h) => h.id)).toEqual(
        expect.arrayContaining([...shared, ...kept].map((h) => h.id)),
      );
      expect(own.items.filter((h) => h.teamId !== undefined)).toHaveLength(4);
      expect(own.items.find((h) => h.id === personal[0]!.id)).not.toHaveProperty('teamId');

      // A member shares two; the same share again is one share.
      for (const headshot of shared.slice(0, 2)) {
        const answer = teamHeadshotSchema.parse(
          await ok(member, 'PUT', `/api/teams/${teamId}/shared/${headshot.id}`),
        );
        expect(answer.member).toEqual({ sub: member.sub, email: member.email });
      }
      await ok(member, 'PUT', `/api/teams/${teamId}/shared/${shared[0]!.id}`, {});
      expect(await memberOf(owner, teamId, member.sub)).toMatchObject({ state: 'shared', sharedCount: 2 });

      // Not theirs, or not the team's: refused, nothing shared.
      expect(
        (await call(member, 'PUT', `/api/teams/${teamId}/shared/${ownersOwn[0]!.id}`)).json,
      ).toMatchObject({
        error: { code: 'NOT_FOUND', message: 'Headshot not found.' },
      });
      expect(
        (await call(member, 'PUT', `/api/teams/${teamId}/shared/${personal[0]!.id}`)).json,
      ).toMatchObject({
        error: {
          code: 'NOT_A_TEAM_HEADSHOT',
          message: 'Only the headshots you made with Acme can be shared with it.',
        },
      });

      const page = await gallery(owner, teamId);
      expect(page.items.map((h) => h.headshotId).sort()).toEqual(
        shared
          .slice(0, 2)
          .map((h) => h.id)
          .sort(),
      );
      expect(page.nextCursor).toBeNull();
      for (const item of page.items) {
        expect(item.member.email).toBe(member.email);
        expect(item.variants.map((v) => v.fileName)).toEqual([
          expect.stringMatching(
            new RegExp(`^${member.email.replace(/[.+]/g, '\\$&')}/headshot-[a-z-]+-\\d-square\\.jpg$`),
          ),
        ]);
        const image = await fetch(item.imageUrl);
        expect(image.status).toBe(200);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      // The member sees their own shares; never the owner's unshared headshot; the owner sees no unshared one.
      expect((await gallery(member, teamId)).items).toHaveLength(2);
      expect(JSON.stringify(page)).not.toContain(kept[0]!.id);
      expect(JSON.stringify(page)).not.toContain(ownersOwn[0]!.id);

      // Unsharing one, then deleting the other from the member's own gallery: the team links to neither.
      expect((await call(member, 'DELETE', `/api/teams/${teamId}/shared/${shared[0]!.id}`)).status).toBe(204);
      expect((await call(member, 'DELETE', `/api/headshots/${shared[1]!.id}`)).status).toBe(204);
      expect((await gallery(owner, teamId)).items).toEqual([]);
      expect(await shareItems(teamId, member.sub)).toEqual({ team: 0, own: 0 });
      expect(await memberOf(owner, teamId, member.sub)).toMatchObject({ state: 'joined', sharedCount: 0 });
    },
  );

  it(
    'takes a member’s shares out when they delete their data, and when they are removed; the owner’s account waits until they are alone, then closes the team',
    { timeout: 90_000 },
    async () => {
      const [owner, member] = await Promise.all([signedUpUser(), signedUpUser()]);
      const teamId = await teamWith(owner, member);
      const first = await seedTeamHeadshots(member.sub, teamId, 2);
      await ok(member, 'PUT', `/api/teams/${teamId}/shared/${first[0]!.id}`);
      expect((await gallery(owner, teamId)).items).toHaveLength(1);
      expect((await call(member, 'DELETE', '/api/me/data')).status).toBeLessThan(300);
      expect((await gallery(owner, teamId)).items).toEqual([]);
      expect(await shareItems(teamId, member.sub)).toEqual({ team: 0, own: 0 });

      const second = await seedTeamHeadshots(member.sub, teamId, 1);
      await ok(member, 'PUT', `/api/teams/${teamId}/shared/${second[0]!.id}`);
      expect((await gallery(owner, teamId)).items).toHaveLength(1);

      // The owner cannot delete their account while someone else is in the team.
      expect((await call(owner, 'DELETE', '/api/me')).json).toMatchObject({
        error: {
          code: 'TEAM_OWNER_CANNOT_DELETE_ACCOUNT',
          message:
            'You own Acme, which has other members. Make one of them its owner before you delete your account.',
        },
      });
      expect((await call(owner, 'GET', '/api/me')).status).toBe(200);

      expect((await call(owner, 'DELETE', `/api/teams/${teamId}/members/${member.sub}`)).status).toBe(204);
      expect((await gallery(owner, teamId)).items).toEqual([]);
      expect(await shareItems(teamId, member.sub)).toEqual({ team: 0, own: 0 });
      // Their headshot stays theirs.
      const mine = (await ok(member, 'GET', '/api/headshots')) as { items: { id: string }[] };
      expect(mine.items.map((h) => h.id)).toContain(second[0]!.id);

      // Alone in it now, the owner may go: the team is closed, and its link no longer admits anyone.
      const link = (await ok(owner, 'POST', `/api/teams/${teamId}/invite-links`, {})) as { url: string };
      expect((await call(owner, 'DELETE', '/api/me')).status).toBe(204);
      const [team] = await queryAll({
        KeyConditionExpression: 'PK = :pk AND SK = :sk',
        ExpressionAttributeValues: { ':pk': teamPk(teamId), ':sk': 'TEAM' },
      });
      expect(team).toMatchObject({ closedAt: expect.any(String) });
      const latecomer = await signedUpUser();
      expect(
        (await call(latecomer, 'POST', `/api/invites/${link.url.split('/join/')[1]}/accept`)).json,
      ).toMatchObject({ error: { code: 'INVITE_REVOKED' } });
    },
  );
});
