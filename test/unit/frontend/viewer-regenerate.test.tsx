// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ViewerRegenerate } from '../../../frontend/src/features/dashboard/components/ViewerRegenerate';
import { answer, apiError, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { renderAt, toastsOf } from './render';

/* "Regenerate (1 credit)" in the gallery viewer (a dialog): why it is unavailable, and its errors inside the dialog. */

beforeEach(() => signedIn());

const renderViewer = (credits: number) => {
  answer('GET /api/me', meOf({ credits }));
  return renderAt('/dashboard', {
    element: <ViewerRegenerate headshotId="H1" originalUrl="https://img/h1.webp" />,
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
});
