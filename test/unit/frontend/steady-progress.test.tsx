// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import {
  rememberShownPercent,
  SHOWN_PERCENT_KEY,
  shownPercentOf,
} from '../../../frontend/src/hooks/use-generation-progress';
import { answer, held, meOf } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf } from './fixtures';
import { renderAt } from './render';

/*
 * Step 4's progress never goes backwards (issue 35 item 4): it jumped from 45 % to 5 % after a reload, the 5 shown
 * until the first poll answered. What the tab showed is its floor, and `GET /api/me`'s running generation stands in
 * before the first poll on another device.
 */

beforeEach(() => {
  sessionStorage.clear();
  signedIn();
});

const bodyPercent = () => screen.getByTestId('generation-percent').textContent;
/** The header's bar: steps 1-3 fill three quarters, the generation's percent the last one. */
const headerWidth = () =>
  (screen.getByRole('progressbar', { name: 'Wizard progress' }).firstElementChild as HTMLElement | null)
    ?.style.width;

describe('the percent shown for a generation', () => {
  it('remembers the highest percent shown per generation in this tab, and only the latest five', () => {
    expect(shownPercentOf('G1')).toBe(0);
    rememberShownPercent('G1', 45);
    rememberShownPercent('G1', 30);
    expect(shownPercentOf('G1')).toBe(45);
    for (const id of ['G2', 'G3', 'G4', 'G5', 'G6']) rememberShownPercent(id, 10);
    expect(shownPercentOf('G1')).toBe(0);
    expect(shownPercentOf('G6')).toBe(10);
    expect(Object.keys(JSON.parse(sessionStorage.getItem(SHOWN_PERCENT_KEY) ?? '{}'))).toHaveLength(5);
    // An unreadable entry reads as nothing shown, not as an error.
    sessionStorage.setItem(SHOWN_PERCENT_KEY, '{not json');
    expect(shownPercentOf('G6')).toBe(0);
  });
});

describe('step 4 after a reload', () => {
  it('resumes at the percent this tab showed before the first poll answers, and never goes back while open', async () => {
    rememberShownPercent('GEN7', 45);
    const polls = held<'GET /api/generations/{id}'>();
    answer('GET /api/generations/{id}', polls.reply);
    renderAt('/generator?step=4&generation=GEN7', { element: <GeneratorPage />, route: '/generator' });

    expect(await screen.findByTestId('generation-percent')).toBeTruthy();
    await waitFor(() => expect(polls.sent).toBe(true));
    expect(bodyPercent()).toBe('45%');
    expect(screen.getByTestId('generation-status').textContent).toBe('Creating professional headshots...');
    // 3 steps + 45 % of the fourth, of 4.
    expect(headerWidth()).toBe('86%');

    polls.send(generationOf({ id: 'GEN7', progress: 53 }));
    await waitFor(() => expect(bodyPercent()).toBe('53%'));
    expect(shownPercentOf('GEN7')).toBe(53);

    // An answer below what was shown (a stale read) does not pull the bar back.
    await waitFor(() => expect(polls.sent).toBe(true), { timeout: 4000 });
    polls.send(generationOf({ id: 'GEN7', progress: 30 }));
    await waitFor(() => expect(polls.sent).toBe(true), { timeout: 4000 });
    expect(bodyPercent()).toBe('53%');
    expect(headerWidth()).toBe('88%');
  });

  it("on another device, starts from GET /api/me's progress of the running generation, not from 5", async () => {
    answer(
      'GET /api/me',
      meOf({
        activeGeneration: {
          id: 'GEN8',
          status: 'running',
          progress: 61,
          headshotsExpected: 6,
          regeneratedFrom: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    const polls = held<'GET /api/generations/{id}'>();
    answer('GET /api/generations/{id}', polls.reply);
    renderAt('/generator?step=4&generation=GEN8', { element: <GeneratorPage />, route: '/generator' });
    await waitFor(() => expect(bodyPercent()).toBe('61%'));
    expect(polls.sent).toBe(true);
  });

  it('a generation this tab never showed starts at 5 % before its first poll', async () => {
    const polls = held<'GET /api/generations/{id}'>();
    answer('GET /api/generations/{id}', polls.reply);
    renderAt('/generator?step=4&generation=GEN9', { element: <GeneratorPage />, route: '/generator' });
    await waitFor(() => expect(polls.sent).toBe(true));
    expect(bodyPercent()).toBe('5%');
  });
});
