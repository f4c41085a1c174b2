// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openLook } from '../../../functions/domain/team-look';
import { teamOfReturn } from '../../../frontend/src/features/checkout/components/PaymentResultPage';
import { TeamsSection } from '../../../frontend/src/features/dashboard/components/TeamsSection';
import {
  backgroundFields,
  outfitWithinLook,
  teamBackgroundOptions,
  withinLook,
} from '../../../frontend/src/features/generator/utils/team-look';
import { CreateTeamPage } from '../../../frontend/src/features/teams';
import { invitationSummary } from '../../../frontend/src/features/teams/utils/invitations';
import {
  sameLook,
  toggled,
  withColour,
  withoutColour,
} from '../../../frontend/src/features/teams/utils/look';
import {
  memberActions,
  parseSeats,
  splitDomains,
} from '../../../frontend/src/features/teams/utils/team-form';
import { teamZipEntries, teamZipName } from '../../../frontend/src/features/teams/utils/team-zip';
import { answer, apiError, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { renderAt } from './render';
import { adminTeamOf, memberOf, sharedOf, TEAM_ID } from './team-fixtures';

/* The Teams screens' pure rules (issue 37), the dashboard's 'Teams' and 'Create a team'. */

describe('team forms', () => {
  it('reads domains separated by commas, semicolons or spaces', () => {
    expect(splitDomains(' acme.com, acme.co.uk;  @Acme.org \n')).toEqual([
      'acme.com',
      'acme.co.uk',
      '@Acme.org',
    ]);
    expect(splitDomains('  ')).toEqual([]);
  });

  it('takes a whole number of seats from 1 to 200', () => {
    expect(parseSeats('3')).toBe(3);
    expect(parseSeats(' 200 ')).toBe(200);
    for (const typed of ['0', '201', '2.5', '-1', '', 'three', '1e2']) expect(parseSeats(typed)).toBeNull();
  });

  it('offers the owner roles and removal, an admin removal of members only, nobody the owner or themself', () => {
    const member = memberOf();
    const admin = memberOf({ sub: 'a', role: 'admin' });
    const owner = memberOf({ sub: 'o', role: 'owner' });
    expect(memberActions(member, 'owner', 'o')).toEqual({
      makeAdmin: true,
      makeMember: false,
      makeOwner: true,
      remove: true,
    });
    expect(memberActions(admin, 'owner', 'o')).toEqual({
      makeAdmin: false,
      makeMember: true,
      makeOwner: true,
      remove: true,
    });
    expect(memberActions(member, 'admin', 'a')).toEqual({
      makeAdmin: false,
      makeMember: false,
      makeOwner: false,
      remove: true,
    });
    expect(Object.values(memberActions(admin, 'admin', 'x'))).not.toContain(true);
    expect(Object.values(memberActions(owner, 'owner', 'x'))).not.toContain(true);
    expect(Object.values(memberActions(admin, 'admin', 'a'))).not.toContain(true);
  });

  it('sums up invitations in one line, naming only what applies', () => {
    const none = {
      sent: [],
      failed: [],
      alreadyMembers: [],
      alreadyInvited: [],
      wrongDomain: [],
      invalid: [],
    };
    expect(invitationSummary({ ...none, sent: ['a@x.com'] })).toBe('Invited 1.');
    expect(
      invitationSummary({
        sent: ['a@x.com', 'b@x.com'],
        alreadyMembers: ['c@x.com'],
        alreadyInvited: ['d@x.com'],
        wrongDomain: ['e@y.com'],
        invalid: ['f', 'g'],
        failed: ['h@x.com'],
      }),
    ).toBe(
      'Invited 2. 1 already in the team. 1 already invited: use Resend. 1 not at your domains. 2 not e-mail addresses. 1 could not be sent: use Resend.',
    );
  });
});

describe('the brand look editor', () => {
  it('toggles a choice in the list’s own order', () => {
    expect(toggled(['blazer'], 'shirt', ['shirt', 'blazer'])).toEqual(['shirt', 'blazer']);
    expect(toggled(['shirt', 'blazer'], 'shirt', ['shirt', 'blazer'])).toEqual(['blazer']);
  });

  it('adds up to three distinct #rrggbb colours, lower case, and removes them', () => {
    let look = openLook();
    look = withColour(look, ' #1F6FEB ')!;
    expect(look.backgrounds.at(-1)).toEqual({ type: 'colour', colour: '#1f6feb' });
    expect(withColour(look, '#1f6feb')).toBeNull();
    expect(withColour(look, 'blue')).toBeNull();
    look = withColour(withColour(look, '#000000')!, '#ffffff')!;
    expect(withColour(look, '#123456')).toBeNull();
    expect(withoutColour(look, '#000000').backgrounds.filter((b) => b.type === 'colour')).toHaveLength(2);
    expect(sameLook(openLook(), { ...openLook(), styles: [...openLook().styles].reverse() })).toBe(true);
    expect(sameLook(openLook(), look)).toBe(false);
  });
});

describe("the wizard's team look", () => {
  it('holds a choice within the look: the only entry of a list of one, nothing outside it', () => {
    expect(withinLook('creative', ['professional'])).toBe('professional');
    expect(withinLook('creative', ['professional', 'creative'])).toBe('creative');
    expect(withinLook('business-casual', ['professional', 'creative'])).toBeNull();
    expect(withinLook(null, ['professional', 'creative'])).toBeNull();
    expect(outfitWithinLook('own-clothing', ['blazer', 'shirt'])).toBe('blazer');
  });

  it('offers presets as cards and colours as swatches, sent as the studio preset with the colour', () => {
    const options = teamBackgroundOptions({
      ...openLook(),
      backgrounds: [
        { type: 'preset', background: 'gradient' },
        { type: 'colour', colour: '#1f6feb' },
      ],
    });
    expect(options.map((o) => [o.id, o.title, o.swatch])).toEqual([
      ['gradient', 'Gradient', undefined],
      ['#1f6feb', 'Custom colour', '#1f6feb'],
    ]);
    expect(backgroundFields('#1f6feb')).toEqual({ background: 'studio', backgroundColour: '#1f6feb' });
    expect(backgroundFields('office')).toEqual({ background: 'office' });
  });
});

describe("the team's ZIP and payment return", () => {
  it('names every file of every shared headshot under its member’s folder, numbering names alike', () => {
    const entries = teamZipEntries([sharedOf(1), sharedOf(1), sharedOf(2, 'alan@acme.com')]);
    expect(entries.map((e) => e.name)).toEqual([
      'grace@acme.com/headshot-professional-studio-1-square.jpg',
      'grace@acme.com/headshot-professional-studio-1-original.png',
      'grace@acme.com/headshot-professional-studio-1-square (2).jpg',
      'grace@acme.com/headshot-professional-studio-1-original (2).png',
      'alan@acme.com/headshot-professional-studio-2-square.jpg',
      'alan@acme.com/headshot-professional-studio-2-original.png',
    ]);
    expect(teamZipName('Acme Corp. Zürich')).toBe('acme-corp-zurich-headshots.zip');
    expect(teamZipName('***')).toBe('team-headshots.zip');
  });

  it("reads a seat purchase's return to its team, and nothing else", () => {
    const of = (search: string) => teamOfReturn(new URLSearchParams(search));
    expect(of(`session_id=cs_1&redirect=team&team=${TEAM_ID}`)).toBe(TEAM_ID);
    expect(of(`session_id=cs_1&redirect=dashboard&team=${TEAM_ID}`)).toBeNull();
    expect(of('session_id=cs_1&redirect=team&team=..%2Fevil')).toBeNull();
    expect(of('session_id=cs_1&redirect=team')).toBeNull();
  });
});

describe("the dashboard's Teams and 'Create a team'", () => {
  it('lists the caller’s teams with their role, or says why one would create one', async () => {
    signedIn();
    answer('GET /api/teams', {
      items: [
        { teamId: TEAM_ID, name: 'Acme', role: 'owner', joinedAt: '2026-01-01T00:00:00.000Z' },
        { teamId: 'T2', name: 'Globex', role: 'member', joinedAt: '2026-01-02T00:00:00.000Z' },
      ],
    });
    renderAt('/dashboard', { element: <TeamsSection /> });
    const acme = await screen.findByRole('link', { name: /Acme/ });
    expect(acme.getAttribute('href')).toBe(`/teams/${TEAM_ID}`);
    expect(acme.textContent).toContain('Owner');
    expect(screen.getByRole('link', { name: /Globex/ }).textContent).toContain('Member');
    expect(screen.getByRole('link', { name: 'Create a team' }).getAttribute('href')).toBe('/teams/new');
  });

  it('says why to create a team when the caller has none', async () => {
    signedIn();
    renderAt('/dashboard', { element: <TeamsSection /> });
    expect(
      await screen.findByText(
        'Buying headshots for your company? Create a team, buy a seat for each person and invite them.',
      ),
    ).toBeTruthy();
  });

  it('creates a team with its domains and opens its page; the form checks the name first', async () => {
    signedIn();
    answer('POST /api/teams', ({ body }) => adminTeamOf({ name: (body as { name: string }).name }));
    const { router } = renderAt('/teams/new', { element: <CreateTeamPage /> });
    expect(screen.getByRole('heading', { level: 1, name: 'Create a team' })).toBeTruthy();
    expect(
      screen.getByText(
        'Only addresses at these domains can join through a link limited to them, e.g. acme.com. Separate domains with commas.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create team' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter your team’s name.');
    expect(requestsTo('POST /api/teams')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Company name'), { target: { value: ' Acme ' } });
    fireEvent.change(screen.getByLabelText('E-mail domains (optional)'), {
      target: { value: '@Acme.com, acme.co.uk' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/teams/${TEAM_ID}`));
    expect(requestsTo('POST /api/teams')[0]?.body).toEqual({
      name: 'Acme',
      allowedDomains: ['acme.com', 'acme.co.uk'],
    });
  });

  it("shows the API's sentence for a public mail domain", async () => {
    signedIn();
    const message =
      'gmail.com is a public e-mail service, so anyone can have an address there. Use your company’s own domain.';
    answer('POST /api/teams', apiError(400, 'TEAM_DOMAIN_NOT_ALLOWED', message));
    renderAt('/teams/new', { element: <CreateTeamPage /> });
    fireEvent.change(screen.getByLabelText('Company name'), { target: { value: 'Acme' } });
    fireEvent.change(screen.getByLabelText('E-mail domains (optional)'), { target: { value: 'gmail.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create team' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });
});
