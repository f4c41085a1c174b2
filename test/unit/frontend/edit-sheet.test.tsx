// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EditSheet } from '../../../frontend/src/features/dashboard/components/EditSheet';
import { answer, apiError, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { startedOf } from './fixtures';
import { renderAt, toastsOf } from './render';
import { memberTeamOf, TEAM_ID } from './team-fixtures';

/* 'Edit this headshot' (docs/product-spec.md §2 "Edit a headshot"): what it posts for each kind, the version it
   edits, why it cannot start under 1 credit, and the API's refusal inside the sheet. */

beforeEach(() => signedIn());

const EDIT_ROUTE = 'POST /api/headshots/{id}/edits';

const renderSheet = ({
  credits = 3,
  versionId = null as string | null,
  teamId = undefined as string | undefined,
} = {}) => {
  answer('GET /api/me', meOf({ credits }));
  const onStarted = vi.fn<(generationId: string) => void>();
  renderAt('/dashboard', {
    element: (
      <EditSheet
        headshotId="H1"
        teamId={teamId}
        versionId={versionId}
        versionName={versionId ? 'v2' : null}
        onClose={() => {}}
        onStarted={onStarted}
      />
    ),
  });
  return { onStarted };
};

const confirm = async () => {
  const button = screen.getByRole('button', { name: 'Edit (1 credit)' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
};

describe('EditSheet', () => {
  it('posts a custom colour as #rrggbb in lower case and hands the generation to the viewer', async () => {
    answer(EDIT_ROUTE, startedOf({ id: 'GEN-EDIT', creditsReserved: 1, credits: 2 }));
    const { onStarted } = renderSheet();
    expect(screen.getByText(/Each edit costs 1 credit and makes a new version/).textContent).toContain(
      'the credit is refunded automatically',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Custom colour' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Colour' }), { target: { value: '#1F6FEB' } });
    await confirm();
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith('GEN-EDIT'));
    const [request] = requestsTo(EDIT_ROUTE);
    expect(request?.params.id).toBe('H1');
    expect(request?.body).toEqual({
      edit: { kind: 'background', background: { type: 'colour', colour: '#1f6feb' } },
    });
  });

  it('refuses a colour that is not # and six hex digits before anything is sent', async () => {
    renderSheet();
    fireEvent.click(screen.getByRole('radio', { name: 'Custom colour' }));
    const field = screen.getByRole('textbox', { name: 'Colour' });
    fireEvent.change(field, { target: { value: '#12' } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Pick a colour as # and six hex digits, e.g. #1f6feb.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Edit (1 credit)' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(requestsTo(EDIT_ROUTE)).toEqual([]);
  });

  it.each([
    ['Outfit', 'Blazer', { kind: 'outfit', outfit: 'blazer' }],
    ['Retouch', 'Polished', { kind: 'retouch', strength: 'polished' }],
    ['Reframe', 'Tighter', { kind: 'reframe', framing: 'tighter' }],
  ])('%s → %s posts %o, from the version selected', async (kind, choice, edit) => {
    answer(EDIT_ROUTE, startedOf({ creditsReserved: 1 }));
    const { onStarted } = renderSheet({ versionId: 'V2' });
    expect(screen.getByText('Editing v2')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: kind }));
    fireEvent.click(screen.getByRole('radio', { name: new RegExp(`^${choice}`) }));
    await confirm();
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(requestsTo(EDIT_ROUTE)[0]?.body).toEqual({ edit, versionId: 'V2' });
  });

  it('posts an upscale and a transparent background of the original', async () => {
    answer(EDIT_ROUTE, startedOf({ creditsReserved: 1 }));
    renderSheet();
    expect(screen.getByText('Editing the original')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /^Transparent/ }));
    await confirm();
    fireEvent.click(screen.getByRole('radio', { name: 'Upscale' }));
    await confirm();
    await waitFor(() => expect(requestsTo(EDIT_ROUTE)).toHaveLength(2));
    expect(requestsTo(EDIT_ROUTE).map((r) => r.body)).toEqual([
      { edit: { kind: 'background', background: { type: 'transparent' } } },
      { edit: { kind: 'upscale' } },
    ]);
  });

  it('at 0 credits is disabled and says why, with a way to buy credits', async () => {
    renderSheet({ credits: 0 });
    const reason = await screen.findByTestId('regenerate-reason');
    expect(reason.textContent).toContain('No credits left: an edit needs 1 credit; you have 0.');
    const button = screen.getByRole('button', { name: 'Edit (1 credit)' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    expect(screen.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/pricing');
  });

  it("shows the API's refusal inside the sheet, not as a toast behind it (402: with 'Buy credits')", async () => {
    answer(EDIT_ROUTE, apiError(402, 'INSUFFICIENT_CREDITS', 'Insufficient credits'));
    const { onStarted } = renderSheet();
    await confirm();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Insufficient credits');
    expect(screen.getByRole('link', { name: 'Buy credits' })).toBeTruthy();
    expect(onStarted).not.toHaveBeenCalled();
    expect(toastsOf('error')).toEqual([]);
  });

  it('on a team headshot offers only the edits that keep the look (retouch, reframe, upscale), retouch first', async () => {
    answer(EDIT_ROUTE, startedOf({ creditsReserved: 1 }));
    answer('GET /api/teams/{teamId}', memberTeamOf());
    renderSheet({ teamId: TEAM_ID });
    const kinds = within(screen.getByRole('group', { name: 'What to change' }))
      .getAllByRole('radio')
      .map((radio) => radio.getAttribute('aria-label') ?? radio.closest('label')?.textContent);
    expect(kinds).toEqual(['Retouch', 'Reframe', 'Upscale']);
    expect(screen.queryByRole('radio', { name: 'Background' })).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Outfit' })).toBeNull();
    expect((screen.getByRole('radio', { name: 'Retouch' }) as HTMLInputElement).checked).toBe(true);
  });

  it("on a former member's team headshot (the team answers 404) offers every kind, paid by their credits", async () => {
    answer('GET /api/teams/{teamId}', apiError(404, 'TEAM_NOT_FOUND', 'Team not found.'));
    renderSheet({ teamId: TEAM_ID });
    expect(await screen.findByRole('radio', { name: 'Background' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Outfit' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit (1 credit)' })).toBeTruthy();
  });

  it("on a team headshot is paid by the team's edits: 'Edit (1 team edit)' at 0 personal credits", async () => {
    answer(EDIT_ROUTE, startedOf({ creditsReserved: 1 }));
    answer('GET /api/teams/{teamId}', memberTeamOf());
    const { onStarted } = renderSheet({ credits: 0, teamId: TEAM_ID });
    const button = (await screen.findByRole('button', { name: 'Edit (1 team edit)' })) as HTMLButtonElement;
    expect(screen.getByText(/Each edit uses 1 of your team edits/)).toBeTruthy();
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.queryByRole('link', { name: 'Buy credits' })).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    expect(requestsTo(EDIT_ROUTE)[0]?.body).toEqual({ edit: { kind: 'retouch', strength: 'natural' } });
  });
});
