/**
 * Every react-query key of the SPA, in one place, so one screen can refresh what another shows (a generation's
 * new headshots belong in the gallery; any spend or purchase changes the balance). Each key starts with its root,
 * so invalidating the root refreshes every variant: `invalidateQueries({ queryKey: queryKeys.headshots.all })`.
 * Keys of per-user data carry the Cognito `sub`, which keeps two accounts' answers apart even before the cache is
 * cleared on sign-out.
 */
export const queryKeys = {
  /** `GET /api/me`: the user record and credit balance. */
  me: {
    all: ['me'] as const,
    of: (sub: string | null) => ['me', sub] as const,
  },
  /** `GET /api/headshots`: the gallery, one infinite list per filter and order. */
  headshots: {
    all: ['headshots'] as const,
    list: (sub: string | null, filter: string, sort: string) => ['headshots', sub, filter, sort] as const,
  },
  /** `GET /api/generations/{id}`: one generation's progress and headshots (`generations` matches them all). */
  generations: ['generation'] as const,
  generation: (id: string | null) => ['generation', id] as const,
  /** `GET /api/packs`: the public credit packs. */
  packs: ['packs'] as const,
  /** `GET /api/checkout/sessions/{id}`: one Checkout Session's verification. */
  checkoutSession: (sub: string | null | undefined, sessionId: string) =>
    ['checkout-session', sub ?? null, sessionId] as const,
  /**
   * Teams (issue 37): `GET /api/teams` (the caller's teams) and everything under one team (its page, links, purchases,
   * gallery), so a change to a team refreshes all of it with `queryKeys.teams.one(sub, teamId)`.
   */
  teams: {
    all: ['teams'] as const,
    mine: (sub: string | null) => ['teams', sub, 'mine'] as const,
    one: (sub: string | null, teamId: string) => ['teams', sub, teamId] as const,
    part: (sub: string | null, teamId: string, part: 'links' | 'purchases' | 'headshots') =>
      ['teams', sub, teamId, part] as const,
  },
  /** `GET /api/invites/{token}`: the public preview of an invitation link. */
  invite: (token: string) => ['invite', token] as const,
  /** `POST /api/photo-checks`: the verdicts on a set of uploaded photos (their keys, one per line). */
  photoChecks: (keys: string) => ['photo-checks', keys] as const,
} as const;
