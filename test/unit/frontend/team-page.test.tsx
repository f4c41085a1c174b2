// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { unzipSync } from 'fflate';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TeamPage } from '../../../frontend/src/features/teams';
import { answer, answerUrl, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { expectToast, renderAt } from './render';
import { adminTeamOf, memberOf, sharedOf, TEAM_ID } from './team-fixtures';

/*
 * A team's page (docs/product-spec.md §2 "Teams", issue 37): the owner's dashboard of the team — seats and their
 * price, members with their state and allowance, removal after a question, invitations, the brand look, the shared
 * headshots and their ZIP (a plain member's page: team-member-page.test.tsx).
 */

const PATH = `/teams/${TEAM_ID}`;
const open = (path = PATH) => renderAt(path, { element: <TeamPage />, route: '/teams/:teamId' });

beforeEach(() => {
  signedIn();
  answer('GET /api/teams/{teamId}', adminTeamOf());
  answer('GET /api/teams/{teamId}/invite-links', { items: [] });
  answer('GET /api/teams/{teamId}/purchases', { items: [], nextCursor: null });
  answer('GET /api/teams/{teamId}/headshots', { items: [], nextCursor: null });
});

afterEach(() => vi.restoreAllMocks());

describe("a team's page, as its owner", () => {
  it('shows the team, the credits left, and the price of the seats typed, as the server will charge it', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme' })).toBeTruthy();
    const seats = screen.getByRole('region', { name: 'Seats' });
    expect(within(seats).getByText('24 credits left')).toBeTruthy();
    expect(
      within(seats).getByText(
        'Each seat gives one person a generation of 6 headshots and 2 edits (8 credits).',
      ),
    ).toBeTruthy();
    expect(within(seats).getByText('1 seat × $7.00 = $7.00')).toBeTruthy();
    fireEvent.change(within(seats).getByLabelText('Number of seats'), { target: { value: '3' } });
    expect(within(seats).getByText('3 seats × $7.00 = $21.00')).toBeTruthy();
    fireEvent.change(within(seats).getByLabelText('Number of seats'), { target: { value: '8' } });
    expect(within(seats).getByText('8 seats × $6.00 = $48.00')).toBeTruthy();
    fireEvent.change(within(seats).getByLabelText('Number of seats'), { target: { value: '0' } });
    expect((within(seats).getByRole('button', { name: 'Buy seats' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it("'Buy seats' asks the server for a Checkout Session of that many seats, and says so", async () => {
    answer('POST /api/teams/{teamId}/checkout/sessions', {
      id: 'cs_test_1',
      url: 'https://checkout.example/pay/cs_test_1',
    });
    // jsdom cannot leave the page: the hosted page's address is asked for, not followed.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    open();
    const seats = await screen.findByRole('region', { name: 'Seats' });
    fireEvent.change(within(seats).getByLabelText('Number of seats'), { target: { value: '3' } });
    fireEvent.click(within(seats).getByRole('button', { name: 'Buy seats' }));
    await expectToast('success', 'Redirecting to secure checkout...');
    const [sent] = requestsTo('POST /api/teams/{teamId}/checkout/sessions');
    expect(sent?.params.teamId).toBe(TEAM_ID);
    expect(sent?.body).toEqual({ seats: 3 });
    expect(sent?.headers.get('idempotency-key')).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  });

  it("says 'Payment not completed' when Checkout sends the buyer back, and what a refund left owing", async () => {
    answer('GET /api/teams/{teamId}', adminTeamOf({}, { creditsOwed: 6 }));
    open(`${PATH}?checkout=cancelled`);
    const seats = await screen.findByRole('region', { name: 'Seats' });
    expect(within(seats).getByText('Payment not completed. You have not been charged.')).toBeTruthy();
    expect(
      within(seats).getByText(
        'A refunded purchase left 6 credits to settle: they come out of the next seats you buy.',
      ),
    ).toBeTruthy();
  });

  it("lists the team's purchases with 'Seats' for the pack and the receipt", async () => {
    answer('GET /api/teams/{teamId}/purchases', {
      items: [
        {
          id: 'cs_test_1',
          packId: 'team-seats',
          packName: 'Seats',
          credits: 24,
          seats: 3,
          amountCents: 2100,
          currency: 'usd',
          status: 'completed',
          creditsReversed: 0,
          receiptUrl: 'https://pay.stripe.com/receipts/1',
          createdAt: '2026-11-29T10:00:00.000Z',
          buyerEmail: 'ada@example.com',
        },
      ],
      nextCursor: null,
    });
    open();
    const row = await screen.findByTestId('team-purchase');
    expect(row.textContent).toContain('Nov 29, 2026');
    expect(row.textContent).toContain('Seats · 3');
    expect(row.textContent).toContain('$21.00');
    expect(row.textContent).toContain('Paid');
    expect(
      within(row)
        .getByRole('link', { name: /Receipt/ })
        .getAttribute('href'),
    ).toBe('https://pay.stripe.com/receipts/1');
  });

  it('lists members with their state and allowance, and the invitation not answered yet with Resend', async () => {
    answer('POST /api/teams/{teamId}/invitations/{email}/resend', ({ params }) => ({
      email: decodeURIComponent(params.email!),
      state: 'invited',
      sentAt: '2026-02-04T00:00:00.000Z',
      sends: 2,
      expiresAt: '2026-02-18T00:00:00.000Z',
    }));
    open();
    const rows = await screen.findAllByTestId('team-member');
    expect(rows.map((row) => row.dataset.email)).toEqual(['ada@example.com', 'grace@acme.com']);
    const grace = rows[1]!;
    expect(grace.textContent).toContain('Member');
    expect(grace.textContent).toContain('Shared');
    expect(grace.textContent).toContain('Generation 0 of 1 · Edits 0 of 2');
    // The owner's own row offers nothing: nobody removes the owner.
    expect(within(rows[0]!).queryByRole('button')).toBeNull();

    const invitation = screen.getByTestId('team-invitation');
    expect(invitation.textContent).toContain('alan@acme.com');
    expect(invitation.textContent).toContain('Invited');
    expect(invitation.textContent).not.toContain('Generation');
    fireEvent.click(within(invitation).getByRole('button', { name: /Resend/ }));
    await expectToast('success', 'Invitation sent again to alan@acme.com.');
    expect(requestsTo('POST /api/teams/{teamId}/invitations/{email}/resend')[0]?.params.email).toBe(
      'alan@acme.com',
    );
  });

  it('removes a member only after the question, which says what happens to their headshots', async () => {
    let members = adminTeamOf().admin!.members;
    answer('GET /api/teams/{teamId}', () => adminTeamOf({}, { members }));
    answer('DELETE /api/teams/{teamId}/members/{sub}', ({ params }) => {
      members = members.filter((m) => m.sub !== params.sub);
      return undefined;
    });
    open();
    const grace = (await screen.findAllByTestId('team-member'))[1]!;
    fireEvent.click(within(grace).getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove grace@acme.com from Acme?' });
    expect(dialog.textContent).toContain(
      "Their shared headshots leave the team's gallery; their own headshots stay theirs.",
    );
    expect(requestsTo('DELETE /api/teams/{teamId}/members/{sub}')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getAllByTestId('team-member')).toHaveLength(1));
    expect(requestsTo('DELETE /api/teams/{teamId}/members/{sub}')[0]?.params.sub).toBe('member-2');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the owner makes a member admin at once, and asks before handing the team over', async () => {
    answer('PUT /api/teams/{teamId}/members/{sub}', ({ body }) =>
      memberOf({ role: (body as { role: 'admin' | 'owner' }).role }),
    );
    open();
    const grace = (await screen.findAllByTestId('team-member'))[1]!;
    fireEvent.click(within(grace).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(requestsTo('PUT /api/teams/{teamId}/members/{sub}')).toHaveLength(1));
    expect(requestsTo('PUT /api/teams/{teamId}/members/{sub}')[0]?.body).toEqual({ role: 'admin' });

    fireEvent.click(within(grace).getByRole('button', { name: 'Make owner' }));
    const dialog = screen.getByRole('dialog', { name: 'Make grace@acme.com the owner of Acme?' });
    expect(dialog.textContent).toContain('You will become an admin.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make owner' }));
    await waitFor(() => expect(requestsTo('PUT /api/teams/{teamId}/members/{sub}')).toHaveLength(2));
    expect(requestsTo('PUT /api/teams/{teamId}/members/{sub}')[1]?.body).toEqual({ role: 'owner' });
  });

  it('an admin may remove a member but not another admin, and sets no roles', async () => {
    const admin = memberOf({ sub: 'user-1', email: 'ada@example.com', role: 'admin' });
    const other = memberOf({ sub: 'admin-3', email: 'alan@acme.com', role: 'admin' });
    answer(
      'GET /api/teams/{teamId}',
      adminTeamOf(
        { me: admin },
        { members: [memberOf({ sub: 'o', role: 'owner' }), admin, other, memberOf()] },
      ),
    );
    open();
    const rows = await screen.findAllByTestId('team-member');
    const buttonsOf = (i: number) =>
      within(rows[i]!)
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(buttonsOf(0)).toEqual([]);
    expect(buttonsOf(1)).toEqual([]);
    expect(buttonsOf(2)).toEqual([]);
    expect(buttonsOf(3)).toEqual(['Remove']);
  });

  it('creates an invitation link limited to the domains, shows it once with Copy link, and turns links off', async () => {
    let links: { linkId: string; status: 'valid' | 'INVITE_REVOKED' }[] = [];
    const view = (l: (typeof links)[number]) => ({
      ...l,
      createdAt: '2026-11-22T00:00:00.000Z',
      expiresAt: '2026-11-29T00:00:00.000Z',
      cap: 3,
      uses: 1,
      domainsOnly: true,
    });
    answer('GET /api/teams/{teamId}/invite-links', () => ({ items: links.map(view) }));
    answer('POST /api/teams/{teamId}/invite-links', () => {
      links = [{ linkId: 'L1', status: 'valid' }];
      return { link: view(links[0]!), url: 'https://headshots.example/join/abc' };
    });
    answer('DELETE /api/teams/{teamId}/invite-links/{linkId}', () => {
      links = [{ linkId: 'L1', status: 'INVITE_REVOKED' }];
      return undefined;
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    open();
    const invite = await screen.findByRole('region', { name: 'Invite' });
    expect(
      (within(invite).getByRole('checkbox', { name: 'Only addresses at acme.com' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    fireEvent.change(within(invite).getByLabelText('People who can join'), { target: { value: '3' } });
    fireEvent.change(within(invite).getByLabelText('Link expires after'), { target: { value: '7' } });
    fireEvent.click(within(invite).getByRole('button', { name: 'Create link' }));

    const created = await within(invite).findByTestId('created-link');
    expect(requestsTo('POST /api/teams/{teamId}/invite-links')[0]?.body).toEqual({
      expiresInDays: 7,
      cap: 3,
      domainsOnly: true,
    });
    expect(within(created).getByLabelText('Copy this link now: it is shown only once.')).toHaveProperty(
      'value',
      'https://headshots.example/join/abc',
    );
    fireEvent.click(within(created).getByRole('button', { name: 'Copy link' }));
    expect(await within(created).findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('https://headshots.example/join/abc');

    const link = await within(invite).findByTestId('invite-link');
    expect(link.textContent).toContain('Expires Nov 29, 2026 · 1 of 3 joined');
    expect(link.textContent).toContain('Active');
    fireEvent.click(within(link).getByRole('button', { name: 'Turn off' }));
    await waitFor(() =>
      expect(within(invite).getByTestId('invite-link').textContent).toContain('Turned off'),
    );
    expect(within(invite).getByTestId('invite-link').querySelector('button')).toBeNull();
  });

  it('sends e-mail invitations from pasted text and sums up what happened to each address', async () => {
    answer('POST /api/teams/{teamId}/invitations', {
      sent: ['a@acme.com', 'b@acme.com'],
      failed: [],
      alreadyMembers: ['grace@acme.com'],
      alreadyInvited: [],
      wrongDomain: ['x@gmail.com'],
      invalid: [],
    });
    open();
    const invite = await screen.findByRole('region', { name: 'Invite' });
    const field = within(invite).getByLabelText('E-mail addresses');
    fireEvent.change(field, {
      target: { value: 'name,email\nA,a@acme.com\nB,b@acme.com\ngrace@acme.com, x@gmail.com' },
    });
    fireEvent.click(within(invite).getByRole('button', { name: 'Send invitations' }));
    expect(
      await within(invite).findByText('Invited 2. 1 already in the team. 1 not at your domains.'),
    ).toBeTruthy();
    expect(requestsTo('POST /api/teams/{teamId}/invitations')[0]?.body).toEqual({
      text: 'name,email\nA,a@acme.com\nB,b@acme.com\ngrace@acme.com, x@gmail.com',
    });
    expect((field as HTMLTextAreaElement).value).toBe('');
  });

  it('saves a look with one style (locked), a custom colour and two outfits', async () => {
    answer('PATCH /api/teams/{teamId}', ({ body }) =>
      adminTeamOf(body as Partial<ReturnType<typeof adminTeamOf>>),
    );
    open();
    const look = await screen.findByRole('region', { name: 'Brand look' });
    expect(
      within(look).getByText('Members generate with these choices only. Choose one of each to lock it.'),
    ).toBeTruthy();
    const styles = within(look).getByRole('group', { name: 'Styles' });
    fireEvent.click(within(styles).getByRole('checkbox', { name: 'Business Casual' }));
    fireEvent.click(within(styles).getByRole('checkbox', { name: 'Creative' }));
    const backgrounds = within(look).getByRole('group', { name: 'Backgrounds' });
    for (const name of ['Office', 'Outdoor', 'Gradient', 'Studio']) {
      fireEvent.click(within(backgrounds).getByRole('checkbox', { name }));
    }
    fireEvent.change(within(look).getByLabelText('Custom colour'), { target: { value: '#1F6FEB' } });
    fireEvent.click(within(look).getByRole('button', { name: 'Add colour' }));
    const outfits = within(look).getByRole('group', { name: 'Outfits' });
    for (const name of ['Keep my own clothes', 'Shirt', 'Knitwear']) {
      fireEvent.click(within(outfits).getByRole('checkbox', { name }));
    }
    fireEvent.click(within(look).getByRole('button', { name: 'Save look' }));
    await expectToast('success', 'Look saved');
    expect(requestsTo('PATCH /api/teams/{teamId}')[0]?.body).toEqual({
      look: {
        styles: ['professional'],
        backgrounds: [{ type: 'colour', colour: '#1f6feb' }],
        outfits: ['suit-and-tie', 'blazer'],
      },
    });
  });

  it('refuses a look with an empty list before sending it, with the contract’s sentence', async () => {
    open();
    const look = await screen.findByRole('region', { name: 'Brand look' });
    const styles = within(look).getByRole('group', { name: 'Styles' });
    for (const name of ['Professional', 'Business Casual', 'Creative']) {
      fireEvent.click(within(styles).getByRole('checkbox', { name }));
    }
    fireEvent.click(within(look).getByRole('button', { name: 'Save look' }));
    expect(within(look).getByRole('alert').textContent).toBe('Choose at least one style.');
    expect(requestsTo('PATCH /api/teams/{teamId}')).toHaveLength(0);
  });

  it('shows the shared headshots by member, and downloads exactly them as a ZIP with a folder per member', async () => {
    answer('GET /api/teams/{teamId}/headshots', ({ url }) =>
      url.searchParams.get('cursor')
        ? { items: [sharedOf(2, 'alan@acme.com', 'm3')], nextCursor: null }
        : { items: [sharedOf(1)], nextCursor: 'next' },
    );
    for (const path of ['i', 'o']) {
      answerUrl('get', `https://s3/${path}/:id`, () => HttpResponse.arrayBuffer(new ArrayBuffer(8)));
    }
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    open();
    const gallery = await screen.findByRole('region', { name: 'Shared headshots' });
    expect((await within(gallery).findAllByTestId('team-headshot')).map((h) => h.dataset.member)).toEqual([
      'grace@acme.com',
    ]);
    fireEvent.click(within(gallery).getByRole('button', { name: 'Download ZIP' }));
    await expectToast('success', 'Downloaded 2 headshots as a ZIP');
    const blob = vi.mocked(URL.createObjectURL).mock.calls.at(-1)![0] as Blob;
    expect(Object.keys(unzipSync(new Uint8Array(await blob.arrayBuffer()))).sort()).toEqual([
      'alan@acme.com/headshot-professional-studio-2-original.png',
      'alan@acme.com/headshot-professional-studio-2-square.jpg',
      'grace@acme.com/headshot-professional-studio-1-original.png',
      'grace@acme.com/headshot-professional-studio-1-square.jpg',
    ]);
  });

  it('says when no one has shared a headshot yet, and offers no ZIP', async () => {
    open();
    const gallery = await screen.findByRole('region', { name: 'Shared headshots' });
    expect(await within(gallery).findByText('No one has shared a headshot yet.')).toBeTruthy();
    expect(
      (within(gallery).getByRole('button', { name: 'Download ZIP' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});
