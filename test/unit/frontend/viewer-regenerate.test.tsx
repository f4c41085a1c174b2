// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ViewerRegenerate } from '../../../frontend/src/features/dashboard/components/ViewerRegenerate';
import { answer, apiError, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, startedOf } from './fixtures';
import { renderAt, toastsOf } from './render';
import { memberOf, memberTeamOf, TEAM_ID } from './team-fixtures';

/* "Regenerate (1 credit)" in the gallery viewer (a dialog): why it is unavailable, and its errors inside the dialog. */

beforeEach(() => signedIn());

const renderViewer = (credits: number, teamId?: string) => {
  answer('GET /api/me', meOf({ credits }));
  return renderAt('/dashboard', {
    element: <ViewerRegenerate headshotId="H1" originalUrl="https://img/h1.webp" teamId={teamId} />,
  });
};

describe('ViewerRegenerate', () => {
  it('at 0 credits is disabled and says why, with a way to buy credits', async () => {
    renderViewer(0);
    const reason = await screen.findByTestId('regenerate-reason');
    const button = screen.getByRole('button', { name: 'Regenerate (1 credit)' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(reason.textContent).toContain('Regenerating needs 1 credit; you have 0.');
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    expect(screen.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/pricing');
  });

  it("shows the API's refusal inside the dialog, not as a toast behind it", async () => {
    answer(
      'POST /api/headshots/{id}/regenerate',
      apiError(409, 'PHOTOS_EXPIRED', 'The photos of this headshot are no longer stored.'),
    );
    renderViewer(3);
    const button = screen.getByRole('button', { name: 'Regenerate (1 credit)' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The photos of this headshot are no longer stored.');
    expect(requestsTo('POST /api/headshots/{id}/regenerate').map((r) => r.params.id)).toEqual(['H1']);
    expect(toastsOf('error')).toEqual([]);
  });

  it("on a team headshot is paid by the team's edits: 'Regenerate (1 team edit)' at 0 personal credits", async () => {
    answer('GET /api/teams/{teamId}', memberTeamOf());
    answer('POST /api/headshots/{id}/regenerate', startedOf({ creditsReserved: 1 }));
    answer('GET /api/generations/{id}', generationOf({ status: 'running' }));
    renderViewer(0, TEAM_ID);
    const button = (await screen.findByRole('button', {
      name: 'Regenerate (1 team edit)',
    })) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.queryByRole('button', { name: 'Regenerate (1 credit)' })).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(requestsTo('POST /api/headshots/{id}/regenerate')).toHaveLength(1));
    // The member's seat is read again: one of their team edits went.
    await waitFor(() => expect(requestsTo('GET /api/teams/{teamId}')).toHaveLength(2));
  });

  it('on a team headshot whose team edits are used is disabled with the sentence, and no way to buy credits', async () => {
    answer(
      'GET /api/teams/{teamId}',
      memberTeamOf({
        me: memberOf({ allowance: { generationsUsed: 1, generations: 1, editsUsed: 2, edits: 2 } }),
      }),
    );
    renderViewer(5, TEAM_ID);
    const reason = await screen.findByTestId('regenerate-reason');
    expect(reason.textContent).toContain('You have used all 2 of your team edits.');
    const button = screen.getByRole('button', { name: 'Regenerate (1 team edit)' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.queryByRole('link', { name: 'Buy credits' })).toBeNull();
  });

  it("on a former member's team headshot (the team answers 404) is theirs to pay: 'Regenerate (1 credit)'", async () => {
    answer('GET /api/teams/{teamId}', apiError(404, 'TEAM_NOT_FOUND', 'Team not found.'));
    renderViewer(0, TEAM_ID);
    await waitFor(() => expect(requestsTo('GET /api/teams/{teamId}')).toHaveLength(1));
    const button = await screen.findByRole('button', { name: 'Regenerate (1 credit)' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});
