// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ViewerRegenerate } from '../../../frontend/src/features/gallery/components/ViewerRegenerate';
import { renderAt, stubBrowser } from './render';

/* "Regenerate (1 credit)" in the gallery viewer (a dialog): why it is unavailable, and its errors inside the dialog. */

const mocks = vi.hoisted(() => ({
  toast: { success: vi.fn(), error: vi.fn() },
}));
vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/auth', async () => (await import('./auth-mock')).authModule);
vi.mock('../../../frontend/src/lib/auth/auth-context', async () => (await import('./auth-mock')).authModule);

const renderViewer = (credits: number) =>
  renderAt('/dashboard', {
    element: <ViewerRegenerate headshotId="H1" originalUrl="https://img/h1.webp" />,
    seed: (client) => client.setQueryData(['me', 'user-1'], { credits, activeGeneration: null }),
  });

beforeEach(() => vi.clearAllMocks());

describe('ViewerRegenerate', () => {
  it('at 0 credits is disabled and says why, with a way to buy credits', () => {
    renderViewer(0);
    const button = screen.getByRole('button', { name: 'Regenerate (1 credit)' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const reason = screen.getByTestId('regenerate-reason');
    expect(reason.textContent).toContain('Regenerating needs 1 credit; you have 0.');
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    expect(screen.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/pricing');
  });

  it("shows the API's refusal inside the dialog, not as a toast behind it", async () => {
    const fetchMock = stubBrowser(() =>
      Response.json(
        { error: { code: 'PHOTOS_EXPIRED', message: 'The photos of this headshot are no longer stored.' } },
        { status: 409 },
      ),
    );
    renderViewer(3);
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate (1 credit)' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The photos of this headshot are no longer stored.');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/headshots/H1/regenerate')),
      ).toHaveLength(1),
    );
    expect(mocks.toast.error).not.toHaveBeenCalled();
  });
});
