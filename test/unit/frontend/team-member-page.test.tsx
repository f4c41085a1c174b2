// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEAM_ERROR_MESSAGES } from '../../../functions/contracts/teams';
import { TeamPage } from '../../../frontend/src/features/teams';
import { answer, apiError, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { headshotOf } from './fixtures';
import { renderAt } from './render';
import { memberOf, memberTeamOf, sharedOf, TEAM_ID } from './team-fixtures';

/*
 * A team's page for a plain member (docs/product-spec.md §2 "Teams", issue 37): their own seat and the team's look,
 * their shares, leaving after a question; nothing of the team's running. And the page for someone not in the team.
 */

const PATH = `/teams/${TEAM_ID}`;
const open = (path = PATH) => renderAt(path, { element: <TeamPage />, route: '/teams/:teamId' });

beforeEach(() => {
  signedIn();
  answer('GET /api/teams/{teamId}/headshots', { items: [], nextCursor: null });
  answer('GET /api/headshots', { items: [], nextCursor: null, stats: { total: 0, favorites: 0 } });
});

const MADE = memberOf({
  sub: 'user-1',
  state: 'generating',
  allowance: { generationsUsed: 1, generations: 1, editsUsed: 0, edits: 2 },
});

describe("a team's page, as a plain member", () => {
  beforeEach(() => answer('GET /api/teams/{teamId}', memberTeamOf()));

  it('shows their own seat and the look, and nothing of the team’s running', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme' })).toBeTruthy();
    expect(
      screen.getByText('Your team pays for your headshots: one generation of 6 headshots and 2 edits.'),
    ).toBeTruthy();
    expect(screen.getByTestId('my-allowance').textContent).toBe('Generation 0 of 1 · Edits 0 of 2');
    expect(screen.getByRole('link', { name: 'Make your team headshots' }).getAttribute('href')).toBe(
      `/generator?team=${TEAM_ID}`,
    );
    expect(screen.getByRole('region', { name: 'Brand look' }).textContent).toContain('Professional');
    for (const name of ['Seats', 'Members', 'Invite', 'Shared headshots']) {
      expect(screen.queryByRole('region', { name })).toBeNull();
    }
    expect(requestsTo('GET /api/teams/{teamId}/invite-links')).toHaveLength(0);
    expect(requestsTo('GET /api/teams/{teamId}/purchases')).toHaveLength(0);
    // Nothing made yet: not even their own shares are asked for.
    expect(requestsTo('GET /api/teams/{teamId}/headshots')).toHaveLength(0);
  });

  it('lists their shared headshots with Stop sharing', async () => {
    answer(
      'GET /api/teams/{teamId}',
      memberTeamOf({
        me: memberOf({
          sub: 'user-1',
          state: 'shared',
          sharedCount: 1,
          allowance: { generationsUsed: 1, generations: 1, editsUsed: 0, edits: 2 },
        }),
      }),
    );
    answer('GET /api/teams/{teamId}/headshots', {
      items: [sharedOf(1, 'ada@example.com', 'user-1')],
      nextCursor: null,
    });
    answer('DELETE /api/teams/{teamId}/shared/{headshotId}', () => undefined);
    open();
    const mine = await screen.findByRole('region', { name: 'Your team headshots' });
    expect(screen.queryByRole('link', { name: 'Make your team headshots' })).toBeNull();
    expect(within(mine).getByText('Your team sees only the headshots you share.')).toBeTruthy();
    fireEvent.click(await within(mine).findByRole('button', { name: /^Stop sharing/ }));
    await waitFor(() => expect(requestsTo('DELETE /api/teams/{teamId}/shared/{headshotId}')).toHaveLength(1));
    expect(requestsTo('DELETE /api/teams/{teamId}/shared/{headshotId}')[0]?.params.headshotId).toBe('H1');
  });

  it('lists their team headshots from their gallery on any device (every page, only those Acme paid for)', async () => {
    answer('GET /api/teams/{teamId}', memberTeamOf({ me: MADE }));
    answer('GET /api/headshots', ({ url }) =>
      new URL(url).searchParams.get('cursor') === null
        ? {
            items: [headshotOf(1, { id: 'T2', teamId: TEAM_ID }), headshotOf(2, { id: 'P1' })],
            nextCursor: 'page-2',
            stats: { total: 4, favorites: 0 },
          }
        : {
            items: [
              headshotOf(3, { id: 'O1', teamId: 'another-team' }),
              headshotOf(4, { id: 'T1', teamId: TEAM_ID }),
            ],
            nextCursor: null,
            stats: { total: 4, favorites: 0 },
          },
    );
    answer('PUT /api/teams/{teamId}/shared/{headshotId}', ({ params }) => ({
      ...sharedOf(1, 'ada@example.com', 'user-1'),
      headshotId: params.headshotId!,
    }));
    open();
    const mine = await screen.findByRole('region', { name: 'Your team headshots' });
    const shares = await within(mine).findAllByRole('button', { name: /^Share with Acme/ });
    expect(shares).toHaveLength(2);
    fireEvent.click(shares[0]!);
    await waitFor(() => expect(requestsTo('PUT /api/teams/{teamId}/shared/{headshotId}')).toHaveLength(1));
    // Oldest first: T1 (the second page's) is 'Headshot 1'.
    expect(requestsTo('PUT /api/teams/{teamId}/shared/{headshotId}')[0]?.params.headshotId).toBe('T1');
    expect(requestsTo('GET /api/headshots')).toHaveLength(2);
  });

  it('leaves the team after the question, back to the dashboard', async () => {
    answer('DELETE /api/teams/{teamId}/members/{sub}', () => undefined);
    const { router } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Leave team' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave Acme?' });
    expect(dialog.textContent).toContain(
      "Your headshots stay yours; the ones you shared leave the team's gallery.",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(requestsTo('DELETE /api/teams/{teamId}/members/{sub}')[0]?.params.sub).toBe('user-1');
  });
});

it("someone not in the team reads the API's sentence, and nothing else", async () => {
  signedIn();
  answer('GET /api/teams/{teamId}', apiError(404, 'TEAM_NOT_FOUND', TEAM_ERROR_MESSAGES.TEAM_NOT_FOUND));
  open();
  expect(
    await screen.findByRole('heading', { level: 1, name: TEAM_ERROR_MESSAGES.TEAM_NOT_FOUND }),
  ).toBeTruthy();
  expect(screen.queryByRole('region', { name: 'Seats' })).toBeNull();
});
