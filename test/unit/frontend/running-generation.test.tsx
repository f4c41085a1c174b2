// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunningGeneration } from '../../../frontend/src/features/dashboard/components/RunningGeneration';
import { answer } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/* The dashboard's running generation (issue 27 "Resume anywhere"): progress, place in line, and a refresh at its end. */

const active = {
  id: 'GEN3',
  status: 'running' as const,
  progress: 20,
  headshotsExpected: 6,
  regeneratedFrom: null,
  createdAt: '2026-11-26T10:00:00.000Z',
};

beforeEach(() => signedIn());

describe('RunningGeneration', () => {
  it('shows the progress, the place in line and a way to the wizard’s progress page', async () => {
    answer(
      'GET /api/generations/{id}',
      generationOf({ id: 'GEN3', progress: 30, queue: { position: 3, etaSeconds: 90 } }),
    );
    renderAt('/dashboard', { element: <RunningGeneration active={active} /> });
    const card = await screen.findByTestId('running-generation');
    expect(card.textContent).toContain('Creating your 6 headshots');
    await waitFor(() => expect(card.textContent).toContain('In line: 2 generations ahead of you.'));
    expect(card.textContent).toContain('30%');
    expect(screen.getByRole('link', { name: 'See progress' }).getAttribute('href')).toBe(
      '/generator?step=4&generation=GEN3',
    );
  });

  it('when it ends, fetches the gallery and the balance again and goes away', async () => {
    answer(
      'GET /api/generations/{id}',
      generationOf({ id: 'GEN3', status: 'succeeded', progress: 100, headshots: [headshotOf(0)] }),
    );
    const { queryClient } = renderAt('/dashboard', {
      element: <RunningGeneration active={active} />,
      seed: (client) => {
        client.setQueryData(['me', 'user-1'], { credits: 0 });
        client.setQueryData(['headshots', 'user-1', 'all', 'newest'], { pages: [] });
      },
    });
    await waitFor(() => expect(screen.queryByTestId('running-generation')).toBeNull());
    expect(queryClient.getQueryState(['me', 'user-1'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['headshots', 'user-1', 'all', 'newest'])?.isInvalidated).toBe(true);
  });

  it('a regeneration reads "Creating 1 new headshot" and has no wizard link', async () => {
    answer(
      'GET /api/generations/{id}',
      generationOf({ id: 'GEN4', headshotsExpected: 1, regeneratedFrom: 'H1' }),
    );
    renderAt('/dashboard', {
      element: (
        <RunningGeneration active={{ ...active, id: 'GEN4', headshotsExpected: 1, regeneratedFrom: 'H1' }} />
      ),
    });
    const card = await screen.findByTestId('running-generation');
    await waitFor(() => expect(card.textContent).toContain('Creating 1 new headshot'));
    expect(screen.queryByRole('link', { name: 'See progress' })).toBeNull();
  });
});
