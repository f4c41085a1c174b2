// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headshot } from '../../../frontend/src/lib/api/get-generation';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { answer, answerUrl, apiError, meOf, requestsTo } from './api-mocks';
import { generationOf, headshotOf } from './fixtures';
import { expectToast, renderAt, toasts, toastsOf } from './render';
import { answerPolls, drop, expectGenerateFailed, freshWizardTab, photo, reachStep3 } from './wizard';

vi.mock(
  '../../../frontend/src/features/generator/utils/image-prep',
  async () => (await import('./wizard')).imagePrep,
);

/*
 * The wizard in jsdom with the API (and S3 behind its presigned POSTs) answered by the mock server: step 3's button
 * and notice states, the upload step's list of refused files, the whole happy path to 'Your headshots are ready!', a 402, a failed
 * generation and a failed favorite.
 */

let uploads: ReturnType<typeof freshWizardTab>;

beforeEach(() => {
  uploads = freshWizardTab();
  answer('PATCH /api/headshots/{id}', ({ params, body }) => ({
    ...headshotOf(0, { id: params.id }),
    ...(body as Partial<Headshot>),
  }));
});

function renderWizard() {
  return renderAt('/generator', { element: <GeneratorPage /> }).router;
}

const headshot = (slot: number, style: Headshot['style'] = 'business-casual'): Headshot =>
  headshotOf(slot, { style });
const generation = generationOf;

/** The finished generation: succeeded, done, 100 %, all six headshots, plus `fields`. */
const finished = (fields: Parameters<typeof generationOf>[0] = {}) =>
  generation({
    status: 'succeeded',
    stage: 'done',
    progress: 100,
    headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshot(slot)),
    ...fields,
  });

/** Opens a results card's 'Actions' (⋯) menu and returns it. */
function resultsMenu(card: HTMLElement): HTMLElement {
  fireEvent.click(within(card).getByRole('button', { name: 'Actions' }));
  return within(card).getByRole('menu', { name: 'Actions' });
}

/** The list of files left out under the dropzone: its title, the rule's sentence if any, and each reason. */
async function dropReport() {
  const list = await screen.findByTestId('drop-report');
  const reasons = within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
  return { title: within(list).getByRole('heading').textContent, text: list.textContent ?? '', reasons };
}

describe('step 1: upload validation messages (docs/product-spec.md §5)', () => {
  it('shows the hints, adds the valid files and says how many were uploaded', async () => {
    renderWizard();
    expect(screen.getByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    expect(
      screen.getByText('Upload 5-10 photos of yourself from different angles for best results'),
    ).toBeTruthy();
    expect(screen.getByText('Supports JPG, PNG, HEIC. Max 10 photos.')).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);

    drop([photo('a.jpg'), photo('b.jpg')]);

    expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();
    await expectToast('success', '2 files uploaded successfully');
    expect(screen.queryByTestId('drop-report')).toBeNull();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false),
    );

    // The remove button takes the photo away and frees its preview.
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(await screen.findByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(URL.revokeObjectURL).toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("lists a mixed pick's refused files with their reasons until dismissed, and toasts no success over them", async () => {
    renderWizard();
    drop([
      photo('a.jpg'),
      photo('scan.jpg', 'image/jpeg', 1000, '%PDF-1.7\n'),
      photo('notes.png', 'image/png', 1000, 'just some text'),
      photo('huge.jpg', 'image/jpeg', 19 * 1024 * 1024),
    ]);

    expect(await dropReport()).toMatchObject({
      title: '1 photo added, 3 not added',
      reasons: [
        'scan.jpg is not a photo. Use JPG, PNG or HEIC.',
        'notes.png is not a photo. Use JPG, PNG or HEIC.',
        'huge.jpg is 19 MB; the limit is 10 MB.',
      ],
    });
    // The good photo is stored; the list stays, and no success toast was shown for that pick.
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(requestsTo('POST /api/uploads').map((request) => request.body)).toEqual([
      { files: [{ contentType: 'image/jpeg', size: 1000 }] },
    ]);
    expect(toastsOf('success')).toEqual([]);
    expect(toasts()).toEqual([]);
    expect(screen.getByTestId('drop-report')).toBeTruthy();

    // A second pick adds to the list rather than replacing it.
    drop([photo('b.jpg'), photo('doc.pdf', 'application/pdf')]);
    await waitFor(async () => expect((await dropReport()).title).toBe('2 photos added, 4 not added'));
    expect((await dropReport()).reasons.at(-1)).toBe('doc.pdf is not a photo. Use JPG, PNG or HEIC.');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the list of files not added' }));
    expect(screen.queryByTestId('drop-report')).toBeNull();
    expect(screen.getByText('Uploaded photos (2/10)')).toBeTruthy();
  });

  it("none valid → 'Please upload valid image files (max 10MB each)' in the list, naming the file", async () => {
    renderWizard();
    drop([photo('doc.pdf', 'application/pdf')]);
    const report = await dropReport();
    expect(report).toMatchObject({
      title: 'No photos added, 1 not added',
      reasons: ['doc.pdf is not a photo. Use JPG, PNG or HEIC.'],
    });
    expect(report.text).toContain('Please upload valid image files (max 10MB each)');
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(requestsTo('POST /api/uploads')).toHaveLength(0);
  });

  it("more than 10 → 'Maximum 10 files allowed. Some files were not added.', naming the two left out", async () => {
    renderWizard();
    drop(Array.from({ length: 12 }, (_, i) => photo(`p${i}.jpg`)));
    expect(await screen.findByText('Uploaded photos (10/10)')).toBeTruthy();
    const report = await dropReport();
    expect(report).toMatchObject({
      title: '10 photos added, 2 not added',
      reasons: [
        'p10.jpg was not added: the limit is 10 photos.',
        'p11.jpg was not added: the limit is 10 photos.',
      ],
    });
    expect(report.text).toContain('Maximum 10 files allowed. Some files were not added.');
  });

  it('a failed upload can be retried', async () => {
    uploads.failNext();
    renderWizard();
    drop([photo('a.jpg')]);
    const retry = await screen.findByRole('button', { name: 'Retry uploading photo 1' });
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(retry);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('Back from step 1 goes to the landing page', async () => {
    const router = renderWizard();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('generating', () => {
  it('shows the place in line while the generation waits for the image provider, then the results', async () => {
    const polls = [
      generation({ progress: 30, stage: 'generating', queue: { position: 4, etaSeconds: 130 } }),
      generation({ progress: 53, queue: { position: 0, etaSeconds: 0 }, headshots: [headshot(0)] }),
      finished({ queue: null }),
    ];
    answerPolls(polls);
    renderWizard();
    await reachStep3();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    const line = await screen.findByTestId('generation-queue');
    expect(line.textContent).toContain("You're in line — 3 generations ahead of you, about 3 minutes");
    expect(line.textContent).toContain(
      "You can close this page; we'll e-mail you when your headshots are ready.",
    );
    // The time line comes from the line's ETA (130 s: about 3 minutes), then says no number once it runs.
    expect(screen.getByTestId('generation-time').textContent).toBe(
      'Your headshots start in about 3 minutes.',
    );
    await waitFor(() => expect(screen.queryByTestId('generation-queue')).toBeNull());
    expect(screen.getByTestId('generation-time').textContent).toBe(
      'Each headshot appears as soon as it is made.',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
  });

  it('polls to the finished grid with captions, favorites and Generate More', async () => {
    const polls = [
      generation({ progress: 10, stage: 'preparing' }),
      generation({ progress: 53, headshots: [headshot(0)] }),
      finished(),
    ];
    answerPolls(polls);
    renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Generating your headshots' })).toBeTruthy();
    expect(requestsTo('POST /api/generations')[0]?.body).toEqual({
      style: 'business-casual',
      background: 'office',
      // Step 2's outfit, untouched: the customer's own clothes.
      outfit: 'own-clothing',
      // The HEIC photo goes up as the JPEG it was turned into.
      referenceKeys: [uploads.keyOf('a.jpg'), uploads.keyOf('b.jpg')],
    });
    expect(screen.getByTestId('generation-time').textContent).toBe(
      'Each headshot appears as soon as it is made.',
    );
    expect(screen.getByText('Step 4 of 4')).toBeTruthy();
    expect(await screen.findByTestId('generation-status')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('generation-status').textContent).toBe('Analyzing your photos...'),
    );
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);

    // The grid fills in as headshots are saved.
    await waitFor(() =>
      expect(screen.getByTestId('generation-status').textContent).toBe('Creating professional headshots...'),
    );
    expect(await screen.findAllByTestId('headshot')).toHaveLength(1);
    expect(screen.getAllByTestId('headshot-pending')).toHaveLength(5);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your headshots are ready!' })).toBeTruthy();
    const cards = screen.getAllByTestId('headshot');
    expect(cards).toHaveLength(6);
    expect(within(cards[0]!).getByText('business casual')).toBeTruthy();
    expect(within(cards[0]!).getByText('office')).toBeTruthy();
    expect(requestsTo('GET /api/generations/{id}')).toHaveLength(3);

    // Nothing covers the face (issue 35 item 6): every button of a card sits in its caption, under the image.
    for (const card of cards) {
      expect(
        within(card)
          .getAllByRole('button')
          .every((button) => button.closest('figcaption')),
      ).toBe(true);
    }
    // Favorite, from the card's 'Actions' menu (no Delete in the results): optimistic, sent to the API.
    const menu = resultsMenu(cards[1]!);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Add to favorites', 'Download']);
    expect(within(menu).queryByRole('separator')).toBeNull();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Add to favorites' }));
    expect(await within(cards[1]!).findByTestId('favorite-mark')).toBeTruthy();
    await waitFor(() =>
      expect(requestsTo('PATCH /api/headshots/{id}')).toMatchObject([
        { params: { id: 'H1' }, body: { isFavorite: true } },
      ]),
    );
    expect(
      within(resultsMenu(cards[1]!)).getByRole('menuitem', { name: 'Remove from favorites' }),
    ).toBeTruthy();

    // Download asks for a fresh link to that headshot's square and saves the bytes from S3.
    answer('GET /api/headshots/{id}/download', ({ params }) => ({
      url: `https://s3/fresh/${params.id}`,
      fileName: `headshot-${params.id}.jpg`,
      expiresAt: '2026-01-01T00:15:00.000Z',
    }));
    answerUrl('get', 'https://s3/fresh/:id', () => HttpResponse.arrayBuffer(new ArrayBuffer(8)));
    fireEvent.click(within(resultsMenu(cards[2]!)).getByRole('menuitem', { name: 'Download' }));
    await waitFor(() =>
      expect(
        requestsTo('GET /api/headshots/{id}/download').map((r) => [
          r.params.id,
          r.url.searchParams.get('variant'),
        ]),
      ).toEqual([['H2', 'square']]),
    );
    // Counted as a download from the results (the analytics batch goes out after its flush delay).
    await waitFor(
      () =>
        expect(
          requestsTo('POST /api/analytics/events').flatMap((r) => (r.body as { events: unknown[] }).events),
        ).toContainEqual(expect.objectContaining({ name: 'download', props: { from: 'results' } })),
      { timeout: 8000 },
    );

    fireEvent.click(screen.getByRole('button', { name: 'Generate More Headshots' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
  });

  it('rolls a favorite back with a toast when the API refuses it', async () => {
    answer(
      'GET /api/generations/{id}',
      generation({ status: 'succeeded', progress: 100, headshots: [headshot(0, 'professional')] }),
    );
    answer('PATCH /api/headshots/{id}', apiError(500, 'SERVER_ERROR', 'Boom'));
    renderWizard();
    await reachStep3('Professional');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));
    const [card] = await screen.findAllByTestId('headshot');

    fireEvent.click(within(resultsMenu(card!)).getByRole('menuitem', { name: 'Add to favorites' }));

    await expectToast('error', 'Failed to update favorite status');
    expect(within(card!).queryByTestId('favorite-mark')).toBeNull();
    expect(within(resultsMenu(card!)).getByRole('menuitem', { name: 'Add to favorites' })).toBeTruthy();
  });

  it("a 402 → 'Insufficient credits! …' and /pricing", async () => {
    answer(
      'POST /api/generations',
      apiError(402, 'INSUFFICIENT_CREDITS', 'Insufficient credits!', { required: 6, credits: 2 }),
    );
    const router = renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    await expectToast('error', 'Insufficient credits! You need 6 credits but only have 2.');
  });

  it("a failed generation → 'Failed to generate headshots. Please try again.' and back to step 3", async () => {
    answer(
      'GET /api/generations/{id}',
      generation({
        status: 'failed',
        stage: 'failed',
        progress: 30,
        error: { code: 'NO_USABLE_PHOTOS', message: 'None of your photos could be used.' },
        creditsRefunded: 6,
      }),
    );
    renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectGenerateFailed('None of your photos could be used.');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
    expect(screen.getByText('Step 3 of 4')).toBeTruthy();
    // Everything chosen is still there: generating again is one click.
    expect((screen.getByRole('radio', { name: 'Office' }) as HTMLInputElement).checked).toBe(true);
    expect(
      (screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('a failing POST /api/generations stays on step 3 with the reason', async () => {
    answer(
      'POST /api/generations',
      apiError(400, 'UPLOAD_NOT_FOUND', 'Photo 1 has not finished uploading or has expired.'),
    );
    renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectGenerateFailed('Photo 1 has not finished uploading or has expired.');
    expect(screen.getByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
  });

  it("with too few credits the wizard shows 'Insufficient Credits' and the notice on step 3", async () => {
    answer('GET /api/me', meOf({ credits: 3 }));
    renderWizard();
    await reachStep3();
    expect((screen.getByRole('button', { name: 'Insufficient Credits' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText('You need 6 credits to generate headshots, but you only have 3.')).toBeTruthy();
    expect(screen.getByText('Running low on credits!')).toBeTruthy();
  });
});
