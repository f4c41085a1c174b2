// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GenerationStep } from '../../../frontend/src/features/generator/components/GenerationStep';
import { OFFLINE_PREVIEW_HINT } from '../../../frontend/src/components/PreviewNotice';
import { answer } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/*
 * The results screen (step 4) of a generation the offline provider made: the notice, verbatim, and a "Preview"
 * badge on every card; nothing of it for AI headshots. The screen reads the balance (Regenerate's state) from the
 * signed-in session.
 */

beforeEach(() => signedIn());

const NOTICE =
  'Preview headshots: these are your own photos, cut out and placed on a new background, not AI headshots, because the AI image service is not connected here. Each one carries a "PREVIEW" mark.';

function renderResults(preview: boolean) {
  answer(
    'GET /api/generations/{id}',
    generationOf({
      status: 'succeeded',
      stage: 'done',
      progress: 100,
      headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshotOf(slot, { preview })),
    }),
  );
  renderAt('/generator', {
    element: (
      <GenerationStep generationId="GEN1" onFailed={vi.fn()} onGenerateMore={vi.fn()} onNewPhotos={vi.fn()} />
    ),
  });
}

describe('the results of an offline generation', () => {
  it('say they are offline previews and mark every headshot', async () => {
    renderResults(true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
    expect(screen.getByTestId('offline-preview-notice').textContent).toBe(NOTICE);
    expect(screen.getByRole('note').textContent).toBe(NOTICE);
    const cards = screen.getAllByTestId('headshot');
    expect(cards).toHaveLength(6);
    for (const card of cards)
      expect(within(card).getByTestId('preview-badge').textContent).toContain('Preview');
  });

  it("keep the operator's hint off the page and put it in the console", async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    renderResults(true);
    expect(await screen.findByTestId('offline-preview-notice')).toBeTruthy();
    expect(document.body.textContent).not.toContain('OPENAI_API_KEY');
    expect(info).toHaveBeenCalledWith(OFFLINE_PREVIEW_HINT);
    expect(OFFLINE_PREVIEW_HINT).toContain('OPENAI_API_KEY');
    info.mockRestore();
  });

  it('say nothing of previews for AI headshots', async () => {
    renderResults(false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('headshot')).toHaveLength(6));
    expect(screen.queryByTestId('offline-preview-notice')).toBeNull();
    expect(screen.queryByTestId('preview-badge')).toBeNull();
  });
});
