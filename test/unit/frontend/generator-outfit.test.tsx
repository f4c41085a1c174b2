// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { loadDraft } from '../../../frontend/src/features/generator/utils/wizard-draft';
import { requestsTo } from './api-mocks';
import { renderAt } from './render';
import { answerPolls, drop, freshWizardTab, photo, pressContinue } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * Step 2's outfit (issue 36, docs/product-spec.md §2 step 2): a radio group under the style cards, 'Keep my own
 * clothes' by default; the choice goes to POST /api/generations, the tab's draft and the analytics events.
 */

beforeEach(() => {
  freshWizardTab();
  answerPolls([]);
});

const outfitRadio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

/** Uploads a photo and lands on step 2. */
async function reachStep2() {
  renderAt('/generator', { element: <GeneratorPage /> });
  drop([photo('a.jpg')]);
  expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
  await pressContinue();
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
}

describe('the outfit on step 2', () => {
  it('offers five outfits beside the style, starting at the customer’s own clothes, without holding Continue back', async () => {
    await reachStep2();
    const group = screen.getByRole('group', { name: 'Outfit' });
    expect(group.textContent).toContain('What you wear in all 6 headshots. The style sets the overall feel.');
    for (const name of ['Keep my own clothes', 'Suit and tie', 'Blazer', 'Shirt', 'Knitwear'])
      expect(outfitRadio(name)).toBeTruthy();
    expect(outfitRadio('Keep my own clothes').checked).toBe(true);
    // Continue needs a style only.
    fireEvent.click(screen.getByRole('radio', { name: 'Professional' }));
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('sends the chosen outfit with the generation, keeps it in the draft and counts the choice', async () => {
    await reachStep2();
    fireEvent.click(screen.getByRole('radio', { name: 'Professional' }));
    fireEvent.click(outfitRadio('Suit and tie'));
    expect(outfitRadio('Suit and tie').checked).toBe(true);
    expect(outfitRadio('Keep my own clothes').checked).toBe(false);
    await waitFor(() => expect(loadDraft()?.outfit).toBe('suit-and-tie'));

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Studio' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await waitFor(() => expect(requestsTo('POST /api/generations')).toHaveLength(1));
    expect(requestsTo('POST /api/generations')[0]?.body).toMatchObject({
      style: 'professional',
      background: 'studio',
      outfit: 'suit-and-tie',
    });
    // The analytics batch goes out after its flush delay.
    await waitFor(
      () => {
        const events = requestsTo('POST /api/analytics/events').flatMap(
          (r) => (r.body as { events: unknown[] }).events,
        );
        expect(events).toContainEqual(
          expect.objectContaining({ name: 'outfit_chosen', props: { outfit: 'suit-and-tie' } }),
        );
        expect(events).toContainEqual(
          expect.objectContaining({
            name: 'generation_started',
            props: expect.objectContaining({ outfit: 'suit-and-tie' }),
          }),
        );
      },
      { timeout: 8000 },
    );
  });

  it('comes back with the tab’s draft', async () => {
    sessionStorage.setItem(
      'hs.generator.draft',
      JSON.stringify({ step: 2, style: 'creative', background: null, outfit: 'knitwear', photos: [] }),
    );
    renderAt('/generator?step=2', { element: <GeneratorPage /> });
    drop([photo('a.jpg')]);
    expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
    await pressContinue();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
    expect(outfitRadio('Knitwear').checked).toBe(true);
  });
});
