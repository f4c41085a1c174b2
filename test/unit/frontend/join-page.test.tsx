// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEAM_ERROR_MESSAGES, type InvitePreview } from '../../../functions/contracts/teams';
import { JoinPage } from '../../../frontend/src/features/teams';
import { answer, apiError, requestsTo } from './api-mocks';
import { signedIn, signedOut } from './auth-session';
import { renderAt, sessionSettled } from './render';
import { TEAM_ID } from './team-fixtures';

/*
 * The page an invitation link opens, `/join/<token>` (docs/product-spec.md §2 "Teams"): open to everyone, it names
 * the team; signed out it offers sign-in and sign-up coming back here; signed in, 'Join team'. Every link that
 * cannot be used, and every refusal of the join, reads the API's sentence (§8).
 */

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const open = () => renderAt(`/join/${TOKEN}`, { element: <JoinPage />, route: '/join/:token' });
const preview = (patch: Partial<InvitePreview> = {}): InvitePreview => ({
  teamName: 'Acme',
  status: 'valid',
  requiredDomains: ['acme.com'],
  personal: false,
  ...patch,
});

describe('the join page', () => {
  it('signed out: names the team and its domains, and sign-up comes back to the link', async () => {
    signedOut();
    answer('GET /api/invites/{token}', preview());
    const { router } = open();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Join Acme on Headshot Studio' }),
    ).toBeTruthy();
    expect(screen.getByText('Use your address at acme.com.')).toBeTruthy();
    await sessionSettled();
    expect(screen.getByText('Sign in or create an account to join.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('returnTo')).toBe(`/join/${TOKEN}`);
    expect(search.get('mode')).toBe('signup');
    expect(requestsTo('POST /api/invites/{token}/accept')).toHaveLength(0);
  });

  it("signed in: 'Join team' joins, then offers to make the team headshots", async () => {
    signedIn();
    answer('GET /api/invites/{token}', preview({ requiredDomains: [] }));
    answer('POST /api/invites/{token}/accept', {
      teamId: TEAM_ID,
      teamName: 'Acme',
      role: 'member',
      alreadyMember: false,
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You joined Acme.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Make your team headshots' }).getAttribute('href')).toBe(
      `/generator?team=${TEAM_ID}`,
    );
    expect(requestsTo('POST /api/invites/{token}/accept')[0]?.params.token).toBe(TOKEN);
  });

  it('a member already says so', async () => {
    signedIn();
    answer('GET /api/invites/{token}', preview());
    answer('POST /api/invites/{token}/accept', {
      teamId: TEAM_ID,
      teamName: 'Acme',
      role: 'member',
      alreadyMember: true,
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You are already in Acme.' })).toBeTruthy();
  });

  it.each([
    [
      'INVITE_WRONG_DOMAIN',
      403,
      'This team only accepts e-mail addresses at acme.com. Sign in with your work address to join.',
    ],
    ['EMAIL_NOT_VERIFIED', 403, TEAM_ERROR_MESSAGES.EMAIL_NOT_VERIFIED],
    ['INVITE_WRONG_ADDRESS', 403, TEAM_ERROR_MESSAGES.INVITE_WRONG_ADDRESS],
    ['INVITE_USED_UP', 410, TEAM_ERROR_MESSAGES.INVITE_USED_UP],
  ] as const)('a join refused with %s shows its sentence and the way out', async (code, status, message) => {
    signedIn();
    answer('GET /api/invites/{token}', preview());
    answer('POST /api/invites/{token}/accept', apiError(status, code, message));
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
    expect((await screen.findByTestId('join-refused')).textContent).toBe(message);
    expect(screen.getByRole('link', { name: 'Go to Headshot Studio' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Join team' })).toBeNull();
    // Another address could join through this link: the way to sign in with it.
    expect(screen.queryByRole('button', { name: 'Sign in with another address' }) !== null).toBe(
      code === 'INVITE_WRONG_DOMAIN' || code === 'INVITE_WRONG_ADDRESS',
    );
  });

  it("'Sign in with another address' signs out and comes back to the link", async () => {
    signedIn();
    answer('GET /api/invites/{token}', preview());
    answer(
      'POST /api/invites/{token}/accept',
      apiError(
        403,
        'INVITE_WRONG_DOMAIN',
        'This team only accepts e-mail addresses at acme.com. Sign in with your work address to join.',
      ),
    );
    const { router } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Join team' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with another address' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(`/join/${TOKEN}`);
  });

  it.each([
    ['INVITE_EXPIRED', TEAM_ERROR_MESSAGES.INVITE_EXPIRED],
    ['INVITE_USED_UP', TEAM_ERROR_MESSAGES.INVITE_USED_UP],
    ['INVITE_REVOKED', TEAM_ERROR_MESSAGES.INVITE_REVOKED],
  ] as const)('a link the preview says is %s shows its sentence and no join', async (status, message) => {
    signedIn();
    answer('GET /api/invites/{token}', preview({ status }));
    open();
    expect((await screen.findByTestId('join-refused')).textContent).toBe(message);
    expect(screen.queryByRole('button', { name: 'Join team' })).toBeNull();
  });

  it('an unknown link reads the API’s 404 sentence', async () => {
    signedOut();
    answer(
      'GET /api/invites/{token}',
      apiError(404, 'INVITE_NOT_FOUND', TEAM_ERROR_MESSAGES.INVITE_NOT_FOUND),
    );
    open();
    expect((await screen.findByTestId('join-refused')).textContent).toBe(
      TEAM_ERROR_MESSAGES.INVITE_NOT_FOUND,
    );
  });
});
