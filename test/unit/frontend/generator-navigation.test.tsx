// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActiveGeneration, Me } from '../../../functions/contracts/account';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { answer, apiError, meOf, requestsTo } from './api-mocks';
import { signedIn } from './auth-session';
import { generationOf, headshotOf, startedOf } from './fixtures';
import { expectToast, renderAt, toastsOf } from './render';
import { answerUploads, drop, photo, pressContinue } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * The wizard's place in the browser's history and its running generation (issue 27): one history entry per step,
 * a reload on step 4 shows that generation, a generation running elsewhere opens on arrival or is offered, and
 * starting another meanwhile says so instead of 'Failed to generate headshots'.
 */

const running = (id = 'GEN9', patch: Partial<ActiveGeneration> = {}): ActiveGeneration => ({
  id,
  status: 'running',
  progress: 53,
  headshotsExpected: 6,
  regeneratedFrom: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...patch,
});

/** The signed-in user as `GET /api/me` answers it now; a test changes it, before rendering or as the API would. */
let me: Me;

beforeEach(() => {
  sessionStorage.clear();
  signedIn();
  me = meOf();
  answer('GET /api/me', () => me);
  answerUploads();
  answer('POST /api/generations', startedOf());
  answer('GET /api/generations/{id}', ({ params }) => generationOf({ id: params.id, progress: 45 }));
});

const renderWizardAt = (path = '/generator') =>
  renderAt(path, { element: <GeneratorPage />, route: '/generator', history: ['/'] }).router;

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

async function uploadAndContinue() {
  drop([photo('a.jpg')]);
  expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
  await pressContinue();
}

describe('one history entry per step', () => {
  it("Continue adds an entry (?step=N) and the browser's Back returns to the step before, not out", async () => {
    const router = renderWizardAt();
    await waitFor(() => expect(router.state.location.search).toBe('?step=1'));
    await uploadAndContinue();
    expect(await heading('Choose your style')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=2');
    fireEvent.click(screen.getByRole('radio', { name: 'Creative' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await heading('Choose your background')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=3');

    // The phone's Back gesture is a history POP: step 2, with no "Leave the generator?" question.
    await router.navigate(-1);
    expect(await heading('Choose your style')).toBeTruthy();
    expect(screen.queryByText('Leave the generator?')).toBeNull();
    expect((screen.getByRole('radio', { name: 'Creative' }) as HTMLInputElement).checked).toBe(true);

    // The header's Back also walks the same entries back: step 1, then the page before the wizard.
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await heading('Upload your photos')).toBeTruthy();
    expect(router.state.location.search).toBe('?step=1');

    // Leaving the wizard with photos uploaded is still asked about.
    await router.navigate(-1);
    expect(await screen.findByText('Leave the generator?')).toBeTruthy();
  });

  it('a step the photos and choices do not allow yet shows the furthest one they do', async () => {
    const router = renderWizardAt('/generator?step=3');
    expect(await heading('Upload your photos')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?step=1'));
  });
});

describe('the running generation', () => {
  it('a reload on step 4 shows that generation (its id is in the URL), then its results', async () => {
    let polls = 0;
    answer('GET /api/generations/{id}', ({ params }) =>
      ++polls === 1
        ? generationOf({ id: params.id, progress: 45 })
        : generationOf({
            id: params.id,
            status: 'succeeded',
            stage: 'done',
            progress: 100,
            headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshotOf(slot)),
          }),
    );
    renderWizardAt('/generator?step=4&generation=GEN7');
    expect(await heading('Generating your headshots')).toBeTruthy();
    expect(requestsTo('GET /api/generations/{id}')[0]?.params.id).toBe('GEN7');
    expect(await heading('Your headshots are ready!')).toBeTruthy();
  });

  it('opens on arrival when it was started in another tab or on another device', async () => {
    me = { ...me, activeGeneration: running('GEN9') };
    const router = renderWizardAt();
    expect(await heading('Generating your headshots')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN9'));
  });

  it('a regeneration running does not take over the wizard', async () => {
    me = { ...me, activeGeneration: running('GEN9', { headshotsExpected: 1, regeneratedFrom: 'H1' }) };
    renderWizardAt();
    expect(await heading('Upload your photos')).toBeTruthy();
    expect(screen.queryByTestId('active-generation')).toBeNull();
  });

  it('is offered above steps 1-3 when the URL names a step', async () => {
    me = { ...me, activeGeneration: running('GEN9', { progress: 61 }) };
    const router = renderWizardAt('/generator?step=1');
    const notice = await screen.findByTestId('active-generation');
    expect(notice.textContent).toContain('Your headshots are being created (61%).');
    fireEvent.click(screen.getByRole('button', { name: 'See progress' }));
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN9'));
  });

  it('starting another meanwhile says so and shows the one running, not "Failed to generate headshots"', async () => {
    const message =
      'Your headshots are still being created. You can start a new generation as soon as they are ready.';
    // Started in another tab a moment ago: the API refuses a second one, and the user's record now names it.
    answer('POST /api/generations', () => {
      me = { ...me, activeGeneration: running('GEN5') };
      return apiError(429, 'QUOTA_EXCEEDED', message, {
        quota: 'generations-in-flight',
        retryAfterSeconds: 30,
      });
    });
    const router = renderWizardAt();
    await uploadAndContinue();
    fireEvent.click(await screen.findByRole('radio', { name: 'Professional' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Studio' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectToast('info', message);
    await waitFor(() => expect(router.state.location.search).toBe('?step=4&generation=GEN5'));
    expect(toastsOf('error')).toEqual([]);
  });
});

describe('Regenerate on the results', () => {
  it('at 0 credits every Regenerate is disabled and one note says why, with a way to buy credits', async () => {
    me = { ...me, credits: 0 };
    answer(
      'GET /api/generations/{id}',
      generationOf({
        id: 'GEN7',
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        headshots: [0, 1].map((slot) => headshotOf(slot)),
      }),
    );
    renderWizardAt('/generator?step=4&generation=GEN7');
    expect(await heading('Your headshots are ready!')).toBeTruthy();
    // Once the balance is known.
    const note = await screen.findByTestId('regenerate-reason');
    expect(note.textContent).toContain('Regenerating needs 1 credit; you have 0.');
    expect(screen.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe('/pricing');
    const buttons = screen.getAllByRole('button', { name: /^Regenerate \(1 credit\)/ });
    expect(buttons).toHaveLength(2);
    for (const button of buttons) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(button.getAttribute('aria-describedby')).toBe(note.id);
    }
  });
});
