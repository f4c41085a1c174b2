import type { Team, TeamHeadshot, TeamMember } from '../../../functions/contracts/teams';
import { openLook } from '../../../functions/domain/team-look';
import { TEST_USER } from './auth-session';

/**
 * Team answers for the SPA's unit tests (issue 37), in the shapes of `functions/contracts/teams.ts`: a team `T1`
 * "Acme" whose caller is {@link TEST_USER}, as its owner ({@link adminTeamOf}) or a plain member ({@link memberTeamOf}).
 */

export const TEAM_ID = '01TEAMACME0000000000000000';

/** A member of the team: `patch` over a joined member with nothing used. */
export function memberOf(patch: Partial<TeamMember> = {}): TeamMember {
  return {
    sub: 'member-2',
    email: 'grace@acme.com',
    role: 'member',
    state: 'joined',
    joinedAt: '2026-02-01T00:00:00.000Z',
    allowance: { generationsUsed: 0, generations: 1, editsUsed: 0, edits: 2 },
    sharedCount: 0,
    ...patch,
  };
}

/** The caller as the team's owner. */
export const OWNER: TeamMember = memberOf({ sub: TEST_USER.sub, email: TEST_USER.email, role: 'owner' });

/** The team as its owner sees it: 24 credits, domains acme.com, the owner and one member, one invitation. */
export function adminTeamOf(
  patch: Partial<Team> = {},
  admin: Partial<NonNullable<Team['admin']>> = {},
): Team {
  return {
    teamId: TEAM_ID,
    name: 'Acme',
    look: openLook(),
    me: OWNER,
    admin: {
      allowedDomains: ['acme.com'],
      balance: 24,
      creditsOwed: 0,
      members: [OWNER, memberOf({ state: 'shared', sharedCount: 2 })],
      invitations: [
        {
          email: 'alan@acme.com',
          state: 'invited',
          sentAt: '2026-02-02T00:00:00.000Z',
          sends: 1,
          expiresAt: '2026-02-16T00:00:00.000Z',
        },
      ],
      ...admin,
    },
    ...patch,
  };
}

/** The team as a plain member (the caller) sees it: the name, the look and their own seat only. */
export function memberTeamOf(patch: Partial<Team> = {}): Team {
  return {
    teamId: TEAM_ID,
    name: 'Acme',
    look: openLook(),
    me: memberOf({ sub: TEST_USER.sub, email: TEST_USER.email }),
    admin: null,
    ...patch,
  };
}

/** One shared headshot of the team gallery, `H<n>` of `email`, with its square and original. */
export function sharedOf(n: number, email = 'grace@acme.com', sub = 'member-2'): TeamHeadshot {
  return {
    headshotId: `H${n}`,
    member: { sub, email },
    sharedAt: '2026-02-03T00:00:00.000Z',
    style: 'professional',
    background: 'studio',
    outfit: 'blazer',
    thumbnailUrl: `https://s3/t/H${n}`,
    imageUrl: `https://s3/i/H${n}`,
    variants: [
      {
        variant: 'square',
        width: 1024,
        height: 1024,
        fileName: `${email}/headshot-professional-studio-${n}-square.jpg`,
        url: `https://s3/i/H${n}`,
      },
      {
        variant: 'original',
        width: 1024,
        height: 1280,
        fileName: `${email}/headshot-professional-studio-${n}-original.png`,
        url: `https://s3/o/H${n}`,
      },
    ],
  };
}
