// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { generateControls } from '../../../frontend/src/features/generator/utils/wizard-rules';
import { answer, apiError, held, requestsTo, type AnswerOf } from './api-mocks';
import { expectToast, renderAt } from './render';
import { drop, freshWizardTab, photo, pressContinue } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * The wizard in jsdom with the API answered by the mock server, when the photo check finds the photos show different
 * people and none is a majority (`mixed_people`, docs/decisions/012-small-set-identity.md amended by issue 33): the
 * photos keep their warnings, Continue and Generate wait with the check's sentence beside them until the customer
 * removes the photos that aren't them, and a start the server refuses (409 MIXED_PEOPLE) goes back to step 1.
 */

const MIXED =
  "Your photos seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.";

type PhotoChecksAnswer = AnswerOf<'POST /api/photo-checks'>;

/** The photo check's answer for `keys`: two or more photos show different people (every one warned), one is good. */
function checksOf(keys: string[]): PhotoChecksAnswer {
  const mixed = keys.length > 1;
  return {
    checks: keys.map((key) => ({
      key,
      verdict: mixed ? ('warning' as const) : ('good' as const),
      score: mixed ? 76 : 90,
      reasons: mixed ? [{ code: 'mixed_people', message: MIXED }] : [],
    })),
    quality: mixed ? 76 : 90,
  };
}

beforeEach(() => {
  freshWizardTab();
});

const renderWizard = () => renderAt('/generator', { element: <GeneratorPage /> });
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
/** The sentence shown outside the photos' own reasons (beside Continue or above Generate), if any. */
const sentenceOutsideTiles = () =>
  screen.queryAllByText(MIXED).filter((el) => !el.closest('[data-testid="photo-thumbnail"]'));
const verdicts = () => screen.getAllByTestId('photo-thumbnail').map((tile) => tile.dataset.verdict);

describe('photos of different people (mixed_people)', () => {
  it('step 1: Continue waits with the sentence beside it, the warnings stay, until the other photo is removed', async () => {
    answer('POST /api/photo-checks', ({ body }) => checksOf((body as { keys: string[] }).keys));
    renderWizard();
    drop([photo('me.jpg'), photo('someone.jpg')]);
    expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();

    await waitFor(() => expect(sentenceOutsideTiles()).toHaveLength(1));
    expect(button('Continue').disabled).toBe(true);
    // Each photo keeps its own warning and reason.
    expect(verdicts()).toEqual(['warning', 'warning']);
    fireEvent.click(button('Photo 2: Usable, could be better. Why?'));
    expect(within(screen.getAllByTestId('photo-thumbnail')[1]!).getByText(MIXED)).toBeTruthy();

    fireEvent.click(button('Remove photo 2'));
    await waitFor(() => expect(verdicts()).toEqual(['good']));
    expect(sentenceOutsideTiles()).toEqual([]);
    expect(button('Continue').disabled).toBe(false);
  });

  /** Renders the wizard, drops two photos and walks to step 3 with Professional and Office chosen. */
  async function toStep3WithTwoPhotos() {
    renderWizard();
    drop([photo('me.jpg'), photo('someone.jpg')]);
    expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();
    await pressContinue();
    fireEvent.click(await screen.findByRole('radio', { name: 'Professional' }));
    fireEvent.click(button('Continue'));
    fireEvent.click(await screen.findByRole('radio', { name: 'Office' }));
  }

  it('step 3: Generate is disabled with the sentence above it and a way back to the photos; nothing is started', async () => {
    // The check answers after the customer has moved on (Continue is open while photos are checked).
    const checks = held<'POST /api/photo-checks'>();
    answer('POST /api/photo-checks', checks.reply);
    await toStep3WithTwoPhotos();
    expect(button('Generate Headshots (6 credits)').disabled).toBe(false);

    await waitFor(() => expect(checks.sent).toBe(true));
    checks.send(checksOf((requestsTo('POST /api/photo-checks')[0]!.body as { keys: string[] }).keys));
    const notice = await screen.findByTestId('mixed-people-notice');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(within(notice).getByText(MIXED)).toBeTruthy();
    expect(button('Generate Headshots (6 credits)').disabled).toBe(true);
    fireEvent.click(button('Generate Headshots (6 credits)'));
    expect(requestsTo('POST /api/generations')).toEqual([]);

    fireEvent.click(within(notice).getByRole('button', { name: 'Change photos' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(verdicts()).toEqual(['warning', 'warning']);
  });

  it('a start the server refuses (409 MIXED_PEOPLE) says why and goes back to step 1, photos kept', async () => {
    // The wizard's own check saw one person (say, a photo replaced since); the server judges again.
    answer('POST /api/generations', apiError(409, 'MIXED_PEOPLE', MIXED));
    await toStep3WithTwoPhotos();
    fireEvent.click(button('Generate Headshots (6 credits)'));

    await expectToast('error', MIXED);
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Uploaded photos (2/10)')).toBeTruthy();
  });

  it('the generate rule: disabled while the photos mix people, whatever the balance', () => {
    const ready = { credits: 60, hasBackground: true, generating: false };
    expect(generateControls(ready).disabled).toBe(false);
    expect(generateControls({ ...ready, mixedPeople: true })).toEqual({
      label: 'Generate Headshots (6 credits)',
      disabled: true,
      lowCredits: false,
      notice: null,
    });
  });
});
