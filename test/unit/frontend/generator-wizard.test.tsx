// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as GenerationApi from '../../../frontend/src/lib/api/get-generation';
import type { Headshot } from '../../../frontend/src/lib/api/get-generation';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { ApiError } from '../../../frontend/src/lib/api-client';
import { generationOf, headshotOf } from './fixtures';
import { renderAt } from './render';

/*
 * The wizard in jsdom with the network edge mocked: step 3's button and notice states, upload validation toasts,
 * the whole happy path to 'Your headshots are ready!', a 402, a failed generation and a failed favorite.
 */

const mocks = vi.hoisted(() => ({
  credits: 6 as number | undefined,
  toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() },
  api: {
    requestUploads: vi.fn(),
    postToPresigned: vi.fn(),
    createGeneration: vi.fn(),
    getGeneration: vi.fn(),
    setFavorite: vi.fn(),
    downloadHeadshot: vi.fn(),
  },
}));

vi.mock('sonner', () => ({ toast: mocks.toast }));
vi.mock('../../../frontend/src/lib/api/get-me', () => ({
  useMe: () => ({ data: mocks.credits === undefined ? undefined : { credits: mocks.credits } }),
  meQueryKey: ['me'],
}));
vi.mock('../../../frontend/src/components/CreditsBadge', () => ({
  CreditsBadge: () => <a href="/pricing">{mocks.credits} credits</a>,
}));
vi.mock('../../../frontend/src/features/generator/api/create-uploads', () => ({
  requestUploads: mocks.api.requestUploads,
}));
vi.mock('../../../frontend/src/features/generator/api/post-to-presigned', () => ({
  postToPresigned: mocks.api.postToPresigned,
}));
vi.mock('../../../frontend/src/features/generator/api/create-generation', () => ({
  createGeneration: mocks.api.createGeneration,
}));
vi.mock('../../../frontend/src/lib/api/update-headshot', () => ({ updateHeadshot: mocks.api.setFavorite }));
vi.mock('../../../frontend/src/lib/download-headshot', () => ({
  downloadHeadshot: mocks.api.downloadHeadshot,
}));
vi.mock('../../../frontend/src/lib/api/get-generation', async (importOriginal) => ({
  ...(await importOriginal<typeof GenerationApi>()),
  getGeneration: mocks.api.getGeneration,
}));
vi.mock('../../../frontend/src/features/generator/utils/image-prep', () => ({
  preparePhoto: async (file: File) => ({ blob: file, contentType: 'image/jpeg' }),
}));

let uploadCount = 0;

beforeEach(() => {
  // The wizard keeps its draft in sessionStorage for the tab; every test starts with a fresh tab.
  sessionStorage.clear();
  mocks.credits = 6;
  uploadCount = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${Math.random()}`);
  URL.revokeObjectURL = vi.fn();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  mocks.api.requestUploads.mockImplementation(async () => ({
    batchId: 'B',
    uploads: [{ key: `uploads/u/B/${uploadCount++}`, url: 'http://s3/bucket', fields: {} }],
    expiresAt: '',
  }));
  mocks.api.postToPresigned.mockImplementation(async (_t, _b, _n, onProgress: (p: number) => void) => {
    onProgress(50);
    onProgress(100);
  });
  mocks.api.createGeneration.mockResolvedValue({ id: 'GEN1', status: 'queued', progress: 5, credits: 0 });
  mocks.api.setFavorite.mockResolvedValue({});
});

afterEach(() => {
  vi.clearAllMocks();
});

function renderWizard() {
  return renderAt('/generator', { element: <GeneratorPage /> }).router;
}

/** A JPEG's first bytes for a photo's type or name (the wizard reads them), a PDF's otherwise. */
const JPEG_START = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const photo = (name: string, type = 'image/jpeg', size = 1000, bytes?: BlobPart) => {
  const isPhoto = type.startsWith('image/') || /\.hei[cf]$/i.test(name);
  const f = new File([bytes ?? (isPhoto ? JPEG_START : '%PDF-1.7')], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

function drop(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
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

/** The wizard's failure toast, with the API's reason as its description. */
async function expectGenerateFailed(description: string) {
  await waitFor(() =>
    expect(mocks.toast.error).toHaveBeenCalledWith('Failed to generate headshots. Please try again.', {
      description,
    }),
  );
}

/** Each poll answers the next of `polls`; once they run out, a succeeded generation. */
function answerPolls(polls: ReturnType<typeof generationOf>[]) {
  mocks.api.getGeneration.mockImplementation(
    async () => polls.shift() ?? generation({ status: 'succeeded' }),
  );
}

/** Uploads two photos, picks a style and a background: the wizard is on step 3, ready to generate. */
async function reachStep3(style = 'Business Casual', background = 'Office') {
  drop([photo('a.jpg'), photo('b.heic', '')]);
  expect(await screen.findByText('Uploaded photos (2/10)')).toBeTruthy();
  const cont = screen.getByRole('button', { name: 'Continue' });
  await waitFor(() => expect((cont as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(cont);
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your style' })).toBeTruthy();
  expect(screen.getByText('Step 2 of 4')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: style }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: background }));
}

describe('step 1: upload validation messages (docs/product-spec.md §5)', () => {
  it('shows the hints, leaves out invalid files and says how many were uploaded', async () => {
    renderWizard();
    expect(screen.getByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    expect(
      screen.getByText('Upload 5-10 photos of yourself from different angles for best results'),
    ).toBeTruthy();
    expect(screen.getByText('Supports JPG, PNG, HEIC. Max 10 photos.')).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);

    drop([
      photo('a.jpg'),
      photo('doc.pdf', 'application/pdf'),
      photo('huge.jpg', 'image/jpeg', 11 * 1024 * 1024),
    ]);

    expect(await screen.findByText('Uploaded photos (1/10)')).toBeTruthy();
    await waitFor(() => expect(mocks.toast.success).toHaveBeenCalledWith('1 file uploaded successfully'));
    expect(mocks.api.requestUploads).toHaveBeenCalledWith(
      [{ contentType: 'image/jpeg', size: 1000 }],
      expect.anything(),
    );
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false),
    );

    // The remove button takes the photo away and frees its preview.
    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(await screen.findByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(URL.revokeObjectURL).toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("none valid → 'Please upload valid image files (max 10MB each)'", async () => {
    renderWizard();
    drop([photo('doc.pdf', 'application/pdf')]);
    await waitFor(() =>
      expect(mocks.toast.error).toHaveBeenCalledWith('Please upload valid image files (max 10MB each)', {
        description: 'doc.pdf is not a photo. Use JPG, PNG or HEIC.',
      }),
    );
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
  });

  it('names a PDF renamed .jpg and a 12.4 MB photo with the rule each broke, and never calls them uploaded', async () => {
    renderWizard();
    drop([
      photo('scan.jpg', 'image/jpeg', 1000, '%PDF-1.7\n'),
      photo('big.jpg', 'image/jpeg', Math.round(12.4 * 1024 * 1024)),
    ]);
    await waitFor(() =>
      expect(mocks.toast.error).toHaveBeenCalledWith('Please upload valid image files (max 10MB each)', {
        description: 'scan.jpg is not a photo. Use JPG, PNG or HEIC. big.jpg is 12.4 MB; the limit is 10 MB.',
      }),
    );
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(mocks.api.requestUploads).not.toHaveBeenCalled();
    expect(mocks.toast.success).not.toHaveBeenCalled();
  });

  it("more than 10 → 'Maximum 10 files allowed. Some files were not added.'", async () => {
    renderWizard();
    drop(Array.from({ length: 12 }, (_, i) => photo(`p${i}.jpg`)));
    expect(await screen.findByText('Uploaded photos (10/10)')).toBeTruthy();
    expect(mocks.toast.warning).toHaveBeenCalledWith('Maximum 10 files allowed. Some files were not added.');
  });

  it('a failed upload can be retried', async () => {
    mocks.api.postToPresigned.mockRejectedValueOnce(new ApiError(403, 'UPLOAD_FAILED', 'Upload refused.'));
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
    expect(screen.getByText('This will take 2-3 minutes')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('generation-queue')).toBeNull());
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
    expect(mocks.api.createGeneration.mock.calls[0]?.[0]).toEqual({
      style: 'business-casual',
      background: 'office',
      referenceKeys: ['uploads/u/B/0', 'uploads/u/B/1'],
    });
    expect(screen.getByText('This will take 2-3 minutes')).toBeTruthy();
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
    expect(mocks.api.getGeneration).toHaveBeenCalledTimes(3);

    // Favorite: optimistic, sent to the API.
    const heart = within(cards[1]!).getByRole('button', { name: 'Favorite headshot 2' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('true'));
    await waitFor(() => expect(mocks.api.setFavorite).toHaveBeenCalledWith('H1', { isFavorite: true }));

    // Download goes through the download helper with that headshot.
    fireEvent.click(within(cards[2]!).getByRole('button', { name: 'Download headshot 3' }));
    await waitFor(() =>
      expect(mocks.api.downloadHeadshot).toHaveBeenCalledWith(
        expect.objectContaining({ id: 'H2' }),
        'results',
      ),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Generate More Headshots' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload your photos' })).toBeTruthy();
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
  });

  it('rolls a favorite back with a toast when the API refuses it', async () => {
    mocks.api.getGeneration.mockResolvedValue(
      generation({ status: 'succeeded', progress: 100, headshots: [headshot(0, 'professional')] }),
    );
    mocks.api.setFavorite.mockRejectedValue(new ApiError(500, 'SERVER_ERROR', 'Boom'));
    renderWizard();
    await reachStep3('Professional');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));
    const heart = await screen.findByRole('button', { name: 'Favorite headshot 1' });

    fireEvent.click(heart);

    await waitFor(() => expect(mocks.toast.error).toHaveBeenCalledWith('Failed to update favorite status'));
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it("a 402 → 'Insufficient credits! …' and /pricing", async () => {
    mocks.api.createGeneration.mockRejectedValue(
      new ApiError(402, 'INSUFFICIENT_CREDITS', 'Insufficient credits!', { required: 6, credits: 2 }),
    );
    const router = renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(mocks.toast.error).toHaveBeenCalledWith(
      'Insufficient credits! You need 6 credits but only have 2.',
    );
  });

  it("a failed generation → 'Failed to generate headshots. Please try again.' and back to step 3", async () => {
    mocks.api.getGeneration.mockResolvedValue(
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
    mocks.api.createGeneration.mockRejectedValue(
      new ApiError(400, 'UPLOAD_NOT_FOUND', 'Photo 1 has not finished uploading or has expired.'),
    );
    renderWizard();
    await reachStep3();

    fireEvent.click(screen.getByRole('button', { name: 'Generate Headshots (6 credits)' }));

    await expectGenerateFailed('Photo 1 has not finished uploading or has expired.');
    expect(screen.getByRole('heading', { level: 1, name: 'Choose your background' })).toBeTruthy();
  });

  it("with too few credits the wizard shows 'Insufficient Credits' and the notice on step 3", async () => {
    mocks.credits = 3;
    renderWizard();
    await reachStep3();
    expect((screen.getByRole('button', { name: 'Insufficient Credits' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText('You need 6 credits to generate headshots, but you only have 3.')).toBeTruthy();
    expect(screen.getByText('Running low on credits!')).toBeTruthy();
  });
});
