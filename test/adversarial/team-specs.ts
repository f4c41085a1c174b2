import fc from 'fast-check';
import { expect } from 'vitest';
import { OUTFITS } from '../../functions/domain/outfits';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import type { TestUser } from '../helpers/cognito';
import { api } from '../helpers/generation';
import { body, pathId } from './arbitraries';
import { teamShareFuzzSpecs, type TeamShareRoute } from './team-share-specs';
import type { FuzzSpec } from './fuzz-spec';
import { authorization, fixed, requestOf } from './route-requests';

/** The team routes of docs/teams.md that exist so far (functions/http/routes.ts). */
type TeamRoute =
  | 'POST /api/teams'
  | 'GET /api/teams'
  | 'GET /api/teams/{teamId}'
  | 'PATCH /api/teams/{teamId}'
  | 'PUT /api/teams/{teamId}/members/{sub}'
  | 'DELETE /api/teams/{teamId}/members/{sub}'
  | 'POST /api/teams/{teamId}/invite-links'
  | 'GET /api/teams/{teamId}/invite-links'
  | 'DELETE /api/teams/{teamId}/invite-links/{linkId}'
  | 'POST /api/teams/{teamId}/invitations'
  | 'POST /api/teams/{teamId}/invitations/{email}/resend'
  | 'POST /api/teams/{teamId}/checkout/sessions'
  | 'GET /api/teams/{teamId}/purchases'
  | 'GET /api/invites/{token}'
  | 'POST /api/invites/{token}/accept';

const wrongLook = fc.record(
  {
    styles: fc.array(fc.constantFrom(...STYLES, 'casual'), { maxLength: 4 }),
    backgrounds: fc.array(
      fc.oneof(
        fc.constantFrom(...BACKGROUNDS, 'beach').map((background) => ({ type: 'preset', background })),
        fc.constantFrom('#1f6feb', '#ABCDEF', 'red', '#12345').map((colour) => ({ type: 'colour', colour })),
      ),
      { maxLength: 8 },
    ),
    outfits: fc.array(fc.constantFrom(...OUTFITS, 'tuxedo'), { maxLength: 6 }),
  },
  { requiredKeys: [] },
);
const rightLook = fc.record({
  styles: fc.subarray([...STYLES], { minLength: 1 }),
  backgrounds: fc.constantFrom(
    [{ type: 'colour', colour: '#1f6feb' }],
    [
      { type: 'preset', background: 'studio' },
      { type: 'preset', background: 'office' },
    ],
  ),
  outfits: fc.subarray([...OUTFITS], { minLength: 1 }),
});
/** Near-valid looks: mostly right, sometimes empty lists, unknown values or wrong colours. */
const lookBody = fc.oneof({ weight: 2, arbitrary: rightLook }, { weight: 1, arbitrary: wrongLook });

/** Names and domains: mostly right (or a public webmail domain), sometimes wrong (not domains, too long, too many). */
const teamFields = {
  name: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('Acme', '  Acme  Corp ') },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.constantFrom('', ' ', 'x'.repeat(81)), fc.string({ maxLength: 90 })),
    },
  ),
  allowedDomains: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.array(fc.constantFrom('acme.com', '@Acme.co.uk', 'gmail.com'), { maxLength: 3 }),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.constantFrom('acme', '-x.com', 'mailinator.com'), fc.string()), {
        maxLength: 12,
      }),
    },
  ),
};

/** Mostly `own`, sometimes another's id or a generated one: requests reach the handler's deeper branches. */
const mostly = (own: string, others: readonly string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(own) }, { weight: 2, arbitrary: pathId([...others]) });

/**
 * The fuzz specs of the team routes (test/integration/adversarial-fuzz.test.ts): whatever is sent, a team is read
 * and changed only by its members as their role allows, and another team is never touched.
 */
export function teamFuzzSpecs(gatewayUrl: string): Record<TeamRoute | TeamShareRoute, FuzzSpec> {
  const call = async (user: TestUser, method: string, path: string, payload?: unknown) => {
    const res = await api(gatewayUrl, user.idToken, method, path, payload);
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  const teamOf = async (user: TestUser, name: string) =>
    String((await call(user, 'POST', '/api/teams', { name }))!.teamId);
  const linkOf = async (user: TestUser, teamId: string) => {
    const created = (await call(user, 'POST', `/api/teams/${teamId}/invite-links`, {})) as {
      url: string;
      link: { linkId: string };
    };
    return { token: created.url.split('/join/')[1]!, linkId: created.link.linkId };
  };
  /** `user`'s team with `other` in it as a member, and `other`'s own team. */
  const teams = async ({ user, other }: { user: TestUser; other: TestUser }) => {
    const own = await teamOf(user, 'Acme');
    const foreign = await teamOf(other, 'Elsewhere');
    await call(other, 'POST', `/api/invites/${(await linkOf(user, own)).token}/accept`);
    return { own, foreign };
  };
  const unchanged = async (other: TestUser, teamId: string) => {
    const team = (await call(other, 'GET', `/api/teams/${teamId}`)) as {
      name: string;
      admin: { members: unknown[] };
    };
    expect(team.name).toBe('Elsewhere');
    expect(team.admin.members).toHaveLength(1);
  };
  const auth = (user: TestUser) => ({ auth: authorization(user) });
  return {
    'POST /api/teams': {
      reaches: ['200', '400 VALIDATION_ERROR', '400 TEAM_DOMAIN_NOT_ALLOWED', '401 UNAUTHORIZED'],
      request: async ({ user }) =>
        requestOf('POST', fixed('/api/teams'), {
          ...auth(user),
          body: body(fc.record(teamFields, { requiredKeys: [] })),
        }),
    },
    'GET /api/teams': {
      reaches: ['200', '401 UNAUTHORIZED'],
      request: async ({ user }) => {
        await teamOf(user, 'Acme');
        return requestOf('GET', fixed('/api/teams'), auth(user));
      },
    },
    'GET /api/teams/{teamId}': {
      reaches: ['200', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        return requestOf(
          'GET',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}`),
          auth(ctx.user),
        );
      },
    },
    'PATCH /api/teams/{teamId}': {
      reaches: ['200', '400 VALIDATION_ERROR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const change = fc.record({ ...teamFields, look: lookBody }, { requiredKeys: [] });
        return requestOf(
          'PATCH',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}`),
          {
            ...auth(ctx.user),
            body: body(change),
          },
        );
      },
      after: async ({ other }) => {
        const [mine] = ((await call(other, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        await unchanged(other, mine!.teamId);
      },
    },
    'PUT /api/teams/{teamId}/members/{sub}': {
      reaches: ['200', '400 VALIDATION_ERROR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const path = fc
          .tuple(mostly(own, [foreign]), mostly(ctx.other.sub, [ctx.user.sub]))
          .map(([teamId, sub]) => `/api/teams/${teamId}/members/${sub}`);
        const role = fc.record({ role: fc.constantFrom('admin', 'member', 'admin', 'owner', 'boss') });
        return requestOf('PUT', path, { ...auth(ctx.user), body: body(role) });
      },
    },
    'DELETE /api/teams/{teamId}/members/{sub}': {
      reaches: ['204', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const path = fc
          .tuple(mostly(own, [foreign]), mostly(ctx.other.sub, [ctx.user.sub]))
          .map(([teamId, sub]) => `/api/teams/${teamId}/members/${sub}`);
        return requestOf('DELETE', path, auth(ctx.user));
      },
      after: async ({ other }) => {
        const [mine] = ((await call(other, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        await unchanged(other, mine!.teamId);
      },
    },
    'POST /api/teams/{teamId}/invite-links': {
      reaches: ['200', '400 VALIDATION_ERROR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const link = fc.record(
          {
            expiresInDays: fc.constantFrom(1, 7, 30, 0, 31, 2.5, '7'),
            cap: fc.constantFrom(1, 25, 1000, 0, 1001, -1),
            domainsOnly: fc.constantFrom(true, false, 'yes'),
          },
          { requiredKeys: [] },
        );
        return requestOf(
          'POST',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/invite-links`),
          {
            ...auth(ctx.user),
            body: body(link),
          },
        );
      },
    },
    'GET /api/teams/{teamId}/invite-links': {
      reaches: ['200', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        await linkOf(ctx.other, foreign);
        return requestOf(
          'GET',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/invite-links`),
          auth(ctx.user),
        );
      },
    },
    'DELETE /api/teams/{teamId}/invite-links/{linkId}': {
      reaches: ['204', '404 NOT_FOUND', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const [mine, theirs] = [await linkOf(ctx.user, own), await linkOf(ctx.other, foreign)];
        const path = fc
          .tuple(mostly(own, [foreign]), mostly(mine.linkId, [theirs.linkId]))
          .map(([teamId, linkId]) => `/api/teams/${teamId}/invite-links/${linkId}`);
        return requestOf('DELETE', path, auth(ctx.user));
      },
      // Their link still admits people.
      after: async ({ other }) => {
        const [mine] = ((await call(other, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        const links = (await call(other, 'GET', `/api/teams/${mine!.teamId}/invite-links`)) as {
          items: { status: string }[];
        };
        expect(links.items.map((l) => l.status)).toEqual(['valid']);
      },
    },
    'POST /api/teams/{teamId}/invitations': {
      reaches: ['200', '400 VALIDATION_ERROR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const address = fc.constantFrom('grace@example.com', 'ADA@example.com', 'bad@', 'x@gmail.com', '');
        const invite = fc.record(
          {
            emails: fc.array(address, { maxLength: 3 }),
            text: fc.oneof(fc.constantFrom('name,email\nKim,kim@example.com'), fc.string({ maxLength: 60 })),
          },
          { requiredKeys: [] },
        );
        return requestOf(
          'POST',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/invitations`),
          {
            ...auth(ctx.user),
            body: body(invite),
          },
        );
      },
    },
    'POST /api/teams/{teamId}/invitations/{email}/resend': {
      reaches: ['200', '404 INVITATION_NOT_FOUND', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        await call(ctx.user, 'POST', `/api/teams/${own}/invitations`, { emails: ['grace@example.com'] });
        const path = fc
          .tuple(mostly(own, [foreign]), mostly('grace@example.com', ['nobody@example.com']))
          .map(([teamId, email]) => `/api/teams/${teamId}/invitations/${encodeURIComponent(email)}/resend`);
        return requestOf('POST', path, auth(ctx.user));
      },
    },
    'POST /api/teams/{teamId}/checkout/sessions': {
      reaches: ['200', '400 VALIDATION_ERROR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        // Mostly a seat count alone, sometimes out of range, not a whole number, or with a client-chosen price.
        const seats = fc.oneof(
          { weight: 2, arbitrary: fc.record({ seats: fc.integer({ min: 1, max: 200 }) }) },
          {
            weight: 1,
            arbitrary: fc.record(
              { seats: fc.constantFrom(0, -1, 201, 2.5, '3', null), price: fc.integer() },
              { requiredKeys: [] },
            ),
          },
        );
        return requestOf(
          'POST',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/checkout/sessions`),
          { ...auth(ctx.user), body: body(seats) },
        );
      },
      // Opening sessions credits nothing: the team's ledger and the buyer's own credits stay as they were.
      after: async ({ user }) => {
        const [mine] = ((await call(user, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        const team = (await call(user, 'GET', `/api/teams/${mine!.teamId}`)) as {
          admin: { balance: number };
        };
        expect(team.admin.balance).toBe(0);
        expect(((await call(user, 'GET', '/api/me')) as { credits: number }).credits).toBe(6);
      },
    },
    'GET /api/teams/{teamId}/purchases': {
      reaches: [
        '200',
        '400 VALIDATION_ERROR',
        '400 INVALID_CURSOR',
        '404 TEAM_NOT_FOUND',
        '401 UNAUTHORIZED',
      ],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        return requestOf(
          'GET',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/purchases`),
          { ...auth(ctx.user), query: fc.constantFrom('', '?cursor=cs_test_none', '?cursor=not-a-session') },
        );
      },
    },
    ...teamShareFuzzSpecs({ call, teams, auth, mostly }),
    'GET /api/invites/{token}': {
      reaches: ['200', '404 INVITE_NOT_FOUND'],
      request: async (ctx) => {
        const { own } = await teams(ctx);
        const { token } = await linkOf(ctx.user, own);
        return requestOf(
          'GET',
          mostly(token, [token.slice(1), `${token}x`]).map((t) => `/api/invites/${t}`),
          {},
        );
      },
    },
    'POST /api/invites/{token}/accept': {
      reaches: ['200', '404 INVITE_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const foreign = await teamOf(ctx.other, 'Elsewhere');
        const { token } = await linkOf(ctx.other, foreign);
        return requestOf(
          'POST',
          mostly(token, [token.slice(1), `${token}x`]).map((t) => `/api/invites/${t}/accept`),
          auth(ctx.user),
        );
      },
      // Joining gave the joiner no credits of their own (issue 37 §7).
      after: async ({ user }) => {
        const me = (await call(user, 'GET', '/api/me')) as { credits: number };
        expect(me.credits).toBe(6);
      },
    },
  };
}
