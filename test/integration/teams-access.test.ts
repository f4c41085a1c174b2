import { describe, expect, inject, it } from 'vitest';
import { queryAll } from '../../functions/adapters/support/query';
import { teamPk } from '../../functions/adapters/support/keys';
import { routes } from '../../functions/http/routes';
import type { TestUser } from '../helpers/cognito';
import { signedUpUser } from '../helpers/gallery';
import { api } from '../helpers/generation';

/*
 * Issue 37's acceptance, API side: on the shared local stack (gateway, JWT authorizer, handlers, DynamoDB Local), a
 * non-member, a member of another team and a plain member call every route of a team. The first two get 404
 * TEAM_NOT_FOUND — the same answer as for a team that does not exist — and a plain member 403 TEAM_FORBIDDEN on every
 * admin route; none of them sees the team's members, and afterwards the team's partition is byte for byte what it
 * was. Then the join path itself: a domains-only, capped link admits one verified address in the domain, once.
 */

const { gatewayUrl } = inject('localStack');

type Body = Record<string, unknown> | undefined;

/**
 * A request each team route accepts from someone allowed (valid body, the path's ids), so a refusal below is about
 * who calls, not what they send. A route added to the table without an entry here fails the test: add it.
 */
const VALID: Record<string, (ids: { teamId: string; sub: string; linkId: string }) => [string, Body]> = {
  'GET /api/teams/{teamId}': ({ teamId }) => [`/api/teams/${teamId}`, undefined],
  'PATCH /api/teams/{teamId}': ({ teamId }) => [`/api/teams/${teamId}`, { name: 'Taken over' }],
  'PUT /api/teams/{teamId}/members/{sub}': ({ teamId, sub }) => [
    `/api/teams/${teamId}/members/${sub}`,
    { role: 'admin' },
  ],
  'DELETE /api/teams/{teamId}/members/{sub}': ({ teamId, sub }) => [
    `/api/teams/${teamId}/members/${sub}`,
    undefined,
  ],
  'POST /api/teams/{teamId}/invite-links': ({ teamId }) => [`/api/teams/${teamId}/invite-links`, { cap: 5 }],
  'GET /api/teams/{teamId}/invite-links': ({ teamId }) => [`/api/teams/${teamId}/invite-links`, undefined],
  'DELETE /api/teams/{teamId}/invite-links/{linkId}': ({ teamId, linkId }) => [
    `/api/teams/${teamId}/invite-links/${linkId}`,
    undefined,
  ],
  'POST /api/teams/{teamId}/invitations': ({ teamId }) => [
    `/api/teams/${teamId}/invitations`,
    { emails: ['new.person@acme.test'] },
  ],
  'POST /api/teams/{teamId}/invitations/{email}/resend': ({ teamId }) => [
    `/api/teams/${teamId}/invitations/${encodeURIComponent('invited@acme.test')}/resend`,
    undefined,
  ],
  'POST /api/teams/{teamId}/checkout/sessions': ({ teamId }) => [
    `/api/teams/${teamId}/checkout/sessions`,
    { seats: 3 },
  ],
  'GET /api/teams/{teamId}/purchases': ({ teamId }) => [`/api/teams/${teamId}/purchases`, undefined],
  'PUT /api/teams/{teamId}/shared/{headshotId}': ({ teamId }) => [
    `/api/teams/${teamId}/shared/01ARZ3NDEKTSV4RRFFQ69G5FAV`,
    undefined,
  ],
  'DELETE /api/teams/{teamId}/shared/{headshotId}': ({ teamId }) => [
    `/api/teams/${teamId}/shared/01ARZ3NDEKTSV4RRFFQ69G5FAV`,
    undefined,
  ],
  'GET /api/teams/{teamId}/headshots': ({ teamId }) => [`/api/teams/${teamId}/headshots`, undefined],
};

/** The routes a plain member may call on their own team (everything else answers them 403). */
const MEMBER_MAY = new Set([
  'GET /api/teams/{teamId}',
  'PUT /api/teams/{teamId}/shared/{headshotId}',
  'DELETE /api/teams/{teamId}/shared/{headshotId}',
  'GET /api/teams/{teamId}/headshots',
]);

const teamRoutes = routes
  .filter((r) => r.path.startsWith('/api/teams/{teamId}'))
  .map((r) => `${r.method} ${r.path}`);

async function call(user: TestUser, method: string, path: string, body?: Body) {
  const res = await api(gatewayUrl, user.idToken, method, path, body);
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function ok(user: TestUser, method: string, path: string, body?: Body) {
  const answer = await call(user, method, path, body);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.json as Record<string, unknown> & { [key: string]: never };
}

const partition = async (teamId: string) =>
  JSON.stringify(
    await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': teamPk(teamId) },
    }),
  );

describe('team routes × callers who may not', () => {
  it(
    'answer a non-member and another team’s member 404, a plain member 403, and change nothing',
    { timeout: 120_000 },
    async () => {
      const [owner, member, stranger, otherOwner] = await Promise.all([
        signedUpUser(),
        signedUpUser(),
        signedUpUser(),
        signedUpUser(),
      ]);
      const team = await ok(owner, 'POST', '/api/teams', { name: 'Acme' });
      const teamId = String(team.teamId);
      await ok(otherOwner, 'POST', '/api/teams', { name: 'Elsewhere' });
      const created = (await ok(owner, 'POST', `/api/teams/${teamId}/invite-links`, {})) as unknown as {
        url: string;
        link: { linkId: string };
      };
      const token = created.url.split('/join/')[1]!;
      expect(await ok(member, 'POST', `/api/invites/${token}/accept`)).toMatchObject({
        teamId,
        role: 'member',
      });
      const ids = { teamId, sub: owner.sub, linkId: created.link.linkId };

      expect(teamRoutes.filter((key) => !VALID[key])).toEqual([]);
      const before = await partition(teamId);
      const unknownTeam = await call(stranger, 'GET', '/api/teams/01ARZ3NDEKTSV4RRFFQ69G5FAV');
      expect(unknownTeam.status).toBe(404);
      for (const key of teamRoutes) {
        const method = key.split(' ')[0]!;
        const [path, body] = VALID[key]!(ids);
        for (const outsider of [stranger, otherOwner]) {
          const answer = await call(outsider, method, path, body);
          expect([key, answer.status, answer.text]).toEqual([key, 404, unknownTeam.text]);
        }
        if (MEMBER_MAY.has(key)) continue;
        const answer = await call(member, method, path, body);
        expect([key, answer.status, (answer.json?.error as { code: string }).code]).toEqual([
          key,
          403,
          'TEAM_FORBIDDEN',
        ]);
        expect(answer.text).not.toContain(owner.email);
      }
      expect(await partition(teamId)).toBe(before);

      // What a plain member sees of their team: its name and look, and their own seat; nobody else.
      const seen = await ok(member, 'GET', `/api/teams/${teamId}`);
      expect(seen).toMatchObject({ name: 'Acme', admin: null, me: { sub: member.sub, role: 'member' } });
      expect(JSON.stringify(seen)).not.toContain(owner.email);
      // Outsiders' lists hold no trace of it; the public preview only its name and the link's state.
      expect(await ok(stranger, 'GET', '/api/teams')).toEqual({ items: [] });
      expect(await ok(stranger, 'GET', `/api/invites/${token}`)).toEqual({
        teamName: 'Acme',
        status: 'valid',
        requiredDomains: [],
        personal: false,
      });
      // The owner sees the member with their state and allowance.
      const mine = await ok(owner, 'GET', `/api/teams/${teamId}`);
      expect(mine).toMatchObject({
        admin: {
          members: [
            { sub: owner.sub, role: 'owner' },
            {
              sub: member.sub,
              role: 'member',
              state: 'joined',
              allowance: { generationsUsed: 0, editsUsed: 0 },
            },
          ],
        },
      });
    },
  );
});

describe('joining through a link', () => {
  it(
    'admits a verified address in the domain once per cap; another domain is refused with the spec’s words',
    { timeout: 60_000 },
    async () => {
      const [owner, first, second] = await Promise.all([signedUpUser(), signedUpUser(), signedUpUser()]);
      const domain = first.email.split('@')[1]!;
      const team = await ok(owner, 'POST', '/api/teams', { name: 'Acme', allowedDomains: [domain] });
      const teamId = String(team.teamId);
      const created = (await ok(owner, 'POST', `/api/teams/${teamId}/invite-links`, {
        cap: 1,
        domainsOnly: true,
      })) as unknown as {
        url: string;
      };
      const token = created.url.split('/join/')[1]!;
      // Both accept at once: the link's condition lets exactly one in.
      const answers = await Promise.all(
        [first, second].map((u) => call(u, 'POST', `/api/invites/${token}/accept`)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
      const refused = answers.find((a) => a.status === 410)!;
      expect(refused.json?.error).toMatchObject({ code: 'INVITE_USED_UP' });
      const links = await ok(owner, 'GET', `/api/teams/${teamId}/invite-links`);
      expect(links).toMatchObject({ items: [{ uses: 1, cap: 1, status: 'INVITE_USED_UP' }] });
      // The winner opening it again is still a member, without a second use.
      const [winner, loser] = answers[0]!.status === 200 ? [first, second] : [second, first];
      expect(await ok(winner, 'POST', `/api/invites/${token}/accept`)).toMatchObject({ alreadyMember: true });

      // A domains-only link with room refuses an address elsewhere.
      await ok(owner, 'PATCH', `/api/teams/${teamId}`, { allowedDomains: ['acme.test'] });
      const open = (await ok(owner, 'POST', `/api/teams/${teamId}/invite-links`, {
        domainsOnly: true,
      })) as unknown as {
        url: string;
      };
      const elsewhere = await call(loser, 'POST', `/api/invites/${open.url.split('/join/')[1]}/accept`);
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.json?.error).toEqual({
        code: 'INVITE_WRONG_DOMAIN',
        message:
          'This team only accepts e-mail addresses at acme.test. Sign in with your work address to join.',
        details: { domains: ['acme.test'] },
      });
      // Joining granted no credits (issue 37 §7).
      expect(await ok(winner, 'GET', '/api/me')).toMatchObject({ credits: 6 });
    },
  );
});
