import fc from 'fast-check';
import { expect } from 'vitest';
import { teamPk } from '../../functions/adapters/support/keys';
import type { TestUser } from '../helpers/cognito';
import { seedTeamHeadshots } from '../helpers/team-headshots';
import { body, cursorValue, pathId, queryString } from './arbitraries';
import type { FuzzSpec } from './fuzz-spec';
import { requestOf } from './route-requests';

/** The sharing routes and the team gallery (docs/teams.md "Sharing and the team gallery"). */
export type TeamShareRoute =
  | 'PUT /api/teams/{teamId}/shared/{headshotId}'
  | 'DELETE /api/teams/{teamId}/shared/{headshotId}'
  | 'GET /api/teams/{teamId}/headshots';

/** What the team specs (./team-specs.ts) lend these: their calls, the two teams, authorization, `mostly`. */
export interface TeamSpecTools {
  call: (
    user: TestUser,
    method: string,
    path: string,
    payload?: unknown,
  ) => Promise<Record<string, unknown> | undefined>;
  teams: (ctx: { user: TestUser; other: TestUser }) => Promise<{ own: string; foreign: string }>;
  auth: (user: TestUser) => { auth: fc.Arbitrary<string | undefined> };
  mostly: (own: string, others: readonly string[]) => fc.Arbitrary<string>;
}

/**
 * The fuzz specs of sharing and the team gallery (test/integration/adversarial-fuzz.test.ts): seeded team headshots
 * (test/helpers/team-headshots.ts), so a request reaches a share, a refusal for a personal or another member's
 * headshot, and the gallery's pages; another member's headshot is never shared, nor their share taken out.
 */
export function teamShareFuzzSpecs({
  call,
  teams,
  auth,
  mostly,
}: TeamSpecTools): Record<TeamShareRoute, FuzzSpec> {
  return {
    'PUT /api/teams/{teamId}/shared/{headshotId}': {
      reaches: [
        '200',
        '400 VALIDATION_ERROR',
        '404 NOT_FOUND',
        '404 NOT_A_TEAM_HEADSHOT',
        '404 TEAM_NOT_FOUND',
        '401 UNAUTHORIZED',
      ],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const [mine, personal, theirs] = await Promise.all([
          seedTeamHeadshots(ctx.user.sub, own, 2),
          seedTeamHeadshots(ctx.user.sub, undefined, 1),
          seedTeamHeadshots(ctx.other.sub, own, 1),
        ]);
        // Mostly one of four: the user's two team headshots, a personal one, another member's; sometimes any id.
        const ids = [mine[0]!.id, mine[1]!.id, personal[0]!.id, theirs[0]!.id];
        const headshotId = fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...ids) },
          { weight: 1, arbitrary: pathId() },
        );
        const path = fc
          .tuple(mostly(own, [foreign]), headshotId)
          .map(([teamId, id]) => `/api/teams/${teamId}/shared/${id}`);
        // Mostly `{}`, sometimes a version of nothing, a wrong one, or a field the route does not take.
        const share = fc.oneof(
          { weight: 3, arbitrary: fc.constant({}) },
          { weight: 1, arbitrary: fc.ulid().map((versionId) => ({ versionId })) },
          { weight: 1, arbitrary: fc.constantFrom({ versionId: '' }, { versionId: 7 }, { teamId: foreign }) },
        );
        return requestOf('PUT', path, { ...auth(ctx.user), body: body(share) });
      },
      // Another member's headshot never joined the team: the other member shares nothing.
      after: async ({ user, other }) => {
        const [mine] = ((await call(user, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        const theirs = (await call(other, 'GET', `/api/teams/${mine!.teamId}/headshots`)) as {
          items: unknown[];
        };
        expect(theirs.items).toEqual([]);
      },
    },
    'DELETE /api/teams/{teamId}/shared/{headshotId}': {
      reaches: ['204', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const [mine, theirs] = await Promise.all([
          seedTeamHeadshots(ctx.user.sub, own, 1),
          seedTeamHeadshots(ctx.other.sub, own, 1),
        ]);
        await call(ctx.user, 'PUT', `/api/teams/${own}/shared/${mine[0]!.id}`);
        await call(ctx.other, 'PUT', `/api/teams/${own}/shared/${theirs[0]!.id}`);
        const path = fc
          .tuple(mostly(own, [foreign]), mostly(mine[0]!.id, [theirs[0]!.id]))
          .map(([teamId, id]) => `/api/teams/${teamId}/shared/${id}`);
        return requestOf('DELETE', path, auth(ctx.user));
      },
      // The other member's share is still in the team's gallery.
      after: async ({ user, other }) => {
        const [mine] = ((await call(user, 'GET', '/api/teams')) as { items: { teamId: string }[] }).items;
        const gallery = (await call(user, 'GET', `/api/teams/${mine!.teamId}/headshots`)) as {
          items: { member: { sub: string } }[];
        };
        expect(gallery.items.map((h) => h.member.sub)).toEqual([other.sub]);
      },
    },
    'GET /api/teams/{teamId}/headshots': {
      reaches: ['200', '400 INVALID_CURSOR', '404 TEAM_NOT_FOUND', '401 UNAUTHORIZED'],
      request: async (ctx) => {
        const { own, foreign } = await teams(ctx);
        const theirs = await seedTeamHeadshots(ctx.other.sub, own, 1);
        await call(ctx.other, 'PUT', `/api/teams/${own}/shared/${theirs[0]!.id}`);
        const query = queryString({
          cursor: cursorValue(teamPk(own)),
          member: fc.oneof(fc.constantFrom(ctx.other.sub, ctx.user.sub), fc.string({ maxLength: 70 })),
        });
        return requestOf(
          'GET',
          mostly(own, [foreign]).map((id) => `/api/teams/${id}/headshots`),
          { ...auth(ctx.user), query },
        );
      },
    },
  };
}
