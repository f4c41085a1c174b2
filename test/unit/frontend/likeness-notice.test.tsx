// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headshot } from '../../../frontend/src/lib/api/get-generation';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { answer, apiError } from './api-mocks';
import { generationOf, headshotOf } from './fixtures';
import { expectToast, renderAt, toastsOf } from './render';
import {
  answerPolls,
  drop,
  expectGenerateFailed,
  freshWizardTab,
  photo,
  pressContinue,
  reachStep3,
} from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * The wizard in jsdom with the API answered by the mock server, when the likeness cap stops a generation
 * (docs/decisions/004-likeness-retry-cap.md): the results screen says why and asks for other photos instead of
 * sending the customer back to generate again; a start refused for the same photos goes back to step 1.
 */

beforeEach(() => {
  freshWizardTab();
});

function renderWizard() {
  return renderAt('/generator', { element: <GeneratorPage /> }).router;
}

const headshot = (slot: number, style: Headshot['style'] = 'business-casual'): Headshot =>
  headshotOf(slot, { style });
const generation = generationOf;

const mismatch =
  "Your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 6 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.";

describe('the likeness cap on the results screen', () => {
  it('a stopped generation stays on step 4 with the reason and "Upload different photos" (style kept)', async () => {
    answerPolls([
      generation({ progress: 45 }),
      generation({
        status: 'failed',
        stage: 'failed',
        progress: 45,
        error: { code: 'LIKENESS_MISMATCH', message: mismatch },
        creditsRefunded: 6,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    const notice = await screen.findByTestId('likeness-notice');
    expect(within(notice).getByRole('heading', { level: 1 }).textContent).toBe(
      "These headshots didn't look like you",
    );
    expect(within(notice).getByText(mismatch)).toBeTruthy();
    expect(screen.getByText('Step 4 of 4')).toBeTruthy();
    // Not bounced back to generate again with the same photos, and no pending tiles left.
    expect(toastsOf('error')).toEqual([]);
    expect(screen.queryAllByTestId('headshot-pending')).toHaveLength(0);

    fireEvent.click(within(notice).getByRole('button', { name: 'Upload different photos' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    // The style chosen before is still chosen once new photos are in.
    drop([photo('c.jpg')]);
    expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
    await pressContinue();
    expect(
      ((await screen.findByRole('radio', { name: 'Business Casual' })) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('a partial generation shows its headshots and the reason above them', async () => {
    const partial =
      "Some of your headshots didn't look enough like you, so we stopped instead of trying again with these photos. 3 credits have been refunded. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.";
    answerPolls([
      generation({
        status: 'partial',
        stage: 'done',
        progress: 100,
        headshots: [0, 1, 2].map((slot) => headshot(slot)),
        error: { code: 'LIKENESS_MISMATCH', message: partial },
        creditsRefunded: 3,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
    const notice = screen.getByTestId('likeness-notice');
    expect(notice.getAttribute('role')).toBe('note');
    expect(within(notice).getByText(partial)).toBeTruthy();
    expect(screen.getAllByTestId('headshot')).toHaveLength(3);
    expect(within(notice).getByRole('button', { name: 'Upload different photos' })).toBeTruthy();
  });

  it.each([
    [
      'PHOTOS_DONT_MATCH',
      "These photos didn't give us headshots that look like you, so we won't use them again. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
    ],
    [
      'PHOTOS_REFUSED',
      "Our image service refused to make headshots from these photos, so we won't use them again. Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.",
    ],
  ])('photos refused at the start (409 %s) → the reason and back to step 1', async (code, refused) => {
    answer('POST /api/generations', apiError(409, code, refused));
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectToast('error', refused);
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    // The photos stay listed so the customer can remove them and add others.
    expect(screen.getByText('Uploaded photos (2/10)')).toBeTruthy();
  });

  it('any other failure still goes back to step 3 (the cap changes nothing else)', async () => {
    answerPolls([
      generation({
        status: 'failed',
        stage: 'failed',
        error: { code: 'PROVIDER_FAILED', message: 'The image service did not deliver any.' },
        creditsRefunded: 6,
      }),
    ]);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));
    await expectGenerateFailed('The image service did not deliver any.');
    expect(screen.queryByTestId('likeness-notice')).toBeNull();
  });
});
