// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEAM_ERROR_MESSAGES, type TeamLookBody } from '../../../functions/contracts/teams';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { saveDraft } from '../../../frontend/src/features/generator/utils/wizard-draft';
import { answer, apiError, requestsTo } from './api-mocks';
import { signedIn, TEST_USER } from './auth-session';
import { generationOf, headshotOf, startedOf } from './fixtures';
import { expectToast, renderAt } from './render';
import { memberOf, memberTeamOf, sharedOf, TEAM_ID } from './team-fixtures';
import { answerPolls } from './wizard';

/*
 * The wizard started for a team (issue 37, docs/teams.md "The brand look"): only the team's choices, a list of one
 * shown fixed with 'Set by your team', the team's allowance where the credits were, the generation sent with the
 * team and its colour, the team's refusals in their own words, and sharing under the results.
 */

/** A look with one style and one outfit (locked) and two backgrounds: a preset and the brand's colour. */
const LOOK: TeamLookBody = {
  styles: ['professional'],
  backgrounds: [
    { type: 'preset', background: 'office' },
    { type: 'colour', colour: '#1f6feb' },
  ],
  outfits: ['blazer'],
};

const open = () =>
  renderAt(`/generator?team=${TEAM_ID}&step=2`, { element: <GeneratorPage />, route: '/generator' });

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  signedIn();
  // One photo already stored, from the tab's draft: the wizard opens on step 2 without an upload.
  saveDraft({
    step: 2,
    style: 'creative',
    background: null,
    outfit: 'own-clothing',
    photos: [
      {
        id: 'p1',
        name: 'a.jpg',
        previewUrl: null,
        status: 'uploaded',
        progress: 100,
        key: 'uploads/u/B/0',
        error: null,
      },
    ],
  });
  answer('GET /api/teams/{teamId}', memberTeamOf({ look: LOOK }));
  answer('GET /api/teams/{teamId}/headshots', { items: [], nextCursor: null });
});

describe('the wizard for a team', () => {
  it("offers only the team's choices, fixed ones 'Set by your team', and the team's allowance instead of credits", async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
    const styles = screen.getByRole('group', { name: 'Style' });
    expect(
      within(styles)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['professional']);
    // The draft's 'creative' is not in the look: the team's only style stands.
    expect((within(styles).getByRole('radio', { name: 'Professional' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(screen.getAllByText('Set by your team').length).toBeGreaterThanOrEqual(1);
    const outfits = screen.getByRole('group', { name: 'Outfit' });
    expect(
      within(outfits)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['blazer']);
    expect(outfits.textContent).toContain('Set by your team');
    // The team pays: its name in the header, no credit count.
    expect(screen.getByTestId('team-badge').textContent).toContain('Acme');
    expect(screen.queryByRole('link', { name: /credits$/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
    const backgrounds = screen.getByRole('group', { name: 'Background' });
    expect(
      within(backgrounds)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['office', '#1f6feb']);
    const card = screen.getByTestId('team-card');
    expect(card.textContent).toContain('Paid by Acme');
    expect(card.textContent).toContain('Generation 0 of 1 · Edits 0 of 2');
    expect(screen.queryByTestId('credits-card')).toBeNull();
    expect(screen.queryByText(/credits/)).toBeNull();
  });

  it('sends the team and its colour with the generation, then shares the headshots the member picks', async () => {
    let shared: string[] = [];
    answer('POST /api/generations', startedOf({ creditsReserved: 6 }));
    const headshots = [0, 1, 2].map((slot) =>
      headshotOf(slot, { style: 'professional', background: 'studio', teamId: TEAM_ID }),
    );
    answerPolls([generationOf({ status: 'succeeded', progress: 100, headshots, headshotsExpected: 3 })]);
    answer('GET /api/teams/{teamId}/headshots', () => ({
      items: shared.map((id) => ({ ...sharedOf(Number(id.slice(1)), TEST_USER.email, TEST_USER.sub) })),
      nextCursor: null,
    }));
    answer('PUT /api/teams/{teamId}/shared/{headshotId}', ({ params }) => {
      shared = [...shared, params.headshotId!];
      return sharedOf(Number(params.headshotId!.slice(1)), TEST_USER.email, TEST_USER.sub);
    });
    answer('DELETE /api/teams/{teamId}/shared/{headshotId}', ({ params }) => {
      shared = shared.filter((id) => id !== params.headshotId);
      return undefined;
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Custom colour' }));
    expect(screen.getByTestId('team-card')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots' }));

    await waitFor(() => expect(requestsTo('POST /api/generations')).toHaveLength(1));
    expect(requestsTo('POST /api/generations')[0]?.body).toEqual({
      style: 'professional',
      background: 'studio',
      backgroundColour: '#1f6feb',
      outfit: 'blazer',
      referenceKeys: ['uploads/u/B/0'],
      teamId: TEAM_ID,
    });

    const share = await screen.findByRole('region', { name: 'Share with Acme' });
    // The team pays their regenerations from their team edits, whatever their own credits.
    expect(
      await screen.findAllByRole('button', { name: /^Regenerate \(1 team edit\): headshot/ }),
    ).toHaveLength(3);
    expect(screen.queryByRole('button', { name: /^Regenerate \(1 credit\)/ })).toBeNull();
    expect(within(share).getByText('Your team sees only the headshots you share.')).toBeTruthy();
    expect(
      within(share).getByText(
        'Share at least one headshot with Acme: it is how your team gets your headshot.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(share).getByRole('button', { name: /^Share with Acme: Headshot 1/ }));
    await waitFor(() =>
      expect(within(share).getAllByTestId('shareable-headshot')[0]!.dataset.shared).toBe('true'),
    );
    fireEvent.click(within(share).getByRole('button', { name: /^Share with Acme: Headshot 3/ }));
    await waitFor(() => expect(shared).toEqual(['H0', 'H2']));
    await waitFor(() => expect(within(share).getAllByText('Shared')).toHaveLength(2));
    expect(within(share).queryByText(/Share at least one headshot/)).toBeNull();

    fireEvent.click(within(share).getByRole('button', { name: /^Stop sharing: Headshot 1/ }));
    await waitFor(() => expect(shared).toEqual(['H2']));
    await waitFor(() => expect(within(share).getAllByText('Shared')).toHaveLength(1));
    expect(within(share).getByRole('link', { name: 'Back to Acme' }).getAttribute('href')).toBe(
      `/teams/${TEAM_ID}`,
    );
  });

  it('once the member has made their team headshots, Generate waits with the sentence', async () => {
    answer(
      'GET /api/teams/{teamId}',
      memberTeamOf({
        look: LOOK,
        me: memberOf({
          sub: TEST_USER.sub,
          state: 'generating',
          allowance: { generationsUsed: 1, generations: 1, editsUsed: 0, edits: 2 },
        }),
      }),
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Office' }));
    expect(screen.getByRole('alert').textContent).toContain(
      TEAM_ERROR_MESSAGES.TEAM_ALLOWANCE_USED_GENERATION,
    );
    expect((screen.getByRole('button', { name: 'Generate Headshots' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.queryByRole('link', { name: 'Buy More Credits' })).toBeNull();
  });

  it("a team out of seats: the API's sentence, and the wizard stays (no pricing page)", async () => {
    answer('POST /api/generations', apiError(402, 'TEAM_NO_SEATS', TEAM_ERROR_MESSAGES.TEAM_NO_SEATS));
    const { router } = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Office' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots' }));
    await expectToast('error', TEAM_ERROR_MESSAGES.TEAM_NO_SEATS);
    expect(router.state.location.pathname).toBe('/generator');
    expect(new URLSearchParams(router.state.location.search).get('team')).toBe(TEAM_ID);
  });

  it("someone not in the team reads the API's sentence instead of the wizard", async () => {
    answer('GET /api/teams/{teamId}', apiError(404, 'TEAM_NOT_FOUND', TEAM_ERROR_MESSAGES.TEAM_NOT_FOUND));
    open();
    expect((await screen.findByRole('alert')).textContent).toBe(TEAM_ERROR_MESSAGES.TEAM_NOT_FOUND);
    expect(screen.queryByRole('heading', { level: 1, name: 'Choose your style' })).toBeNull();
  });
});
