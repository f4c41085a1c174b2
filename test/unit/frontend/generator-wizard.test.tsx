// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as GeneratorApi from '../../../frontend/src/features/generator/api/generator-api';
import type * as GenerationApi from '../../../frontend/src/lib/api/get-generation';
import type { Generation, Headshot } from '../../../frontend/src/lib/api/get-generation';
import { BackgroundStep } from '../../../frontend/src/features/generator/components/BackgroundStep';
import { GeneratorPage } from '../../../frontend/src/features/generator/components/GeneratorPage';
import { ApiError } from '../../../frontend/src/lib/api-client';

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
vi.mock('../../../frontend/src/features/generator/api/generator-api', async (importOriginal) => ({
  ...(await importOriginal<typeof GeneratorApi>()),
  ...mocks.api,
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
  cleanup();
  vi.clearAllMocks();
});

function withProviders(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function renderWizard() {
  const router = createMemoryRouter(
    [
      { path: '/generator', element: <GeneratorPage /> },
      { path: '/', element: <h1>Landing</h1> },
      { path: '/pricing', element: <h1>Pricing screen</h1> },
    ],
    { initialEntries: ['/generator'] },
  );
  render(withProviders(<RouterProvider router={router} />));
  return router;
}

const photo = (name: string, type = 'image/jpeg', size = 1000) => {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

function drop(files: File[]) {
  const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
  fireEvent.change(input, { target: { files } });
}

function headshot(slot: number, style = 'business-casual', background = 'office'): Headshot {
  const id = `H${slot}`;
  return {
    id,
    slot,
    style,
    background,
    isFavorite: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    thumbnailUrl: `https://s3/t/${id}`,
    imageUrl: `https://s3/i/${id}`,
    downloadUrl: `https://s3/d/${id}`,
    fileName: `headshot-${id}.jpg`,
  };
}

function generation(patch: Partial<Generation>): Generation {
  return {
    id: 'GEN1',
    status: 'running',
    stage: 'generating',
    progress: 5,
    style: 'business-casual',
    background: 'office',
    error: null,
    headshotsExpected: 6,
    headshots: [],
    creditsReserved: 6,
    creditsRefunded: 0,
    urlsExpireAt: new Date(Date.now() + 900_000).toISOString(),
    ...patch,
  };
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

describe('step 3: generate button, credits card and notice', () => {
  function renderStep3(props: Partial<Parameters<typeof BackgroundStep>[0]> = {}) {
    const onGenerate = vi.fn();
    render(
      <MemoryRouter>
        <BackgroundStep
          value="office"
          onChange={() => {}}
          style="professional"
          photoCount={5}
          credits={6}
          generating={false}
          onGenerate={onGenerate}
          {...props}
        />
      </MemoryRouter>,
    );
    return onGenerate;
  }
  const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

  it('shows the four backgrounds and an enabled generate button with 6 credits', () => {
    const onGenerate = renderStep3();
    for (const [title, description] of [
      ['Office', 'Professional office setting'],
      ['Studio', 'Clean studio background'],
      ['Outdoor', 'Natural outdoor setting'],
      ['Gradient', 'Modern gradient background'],
    ]) {
      const radio = screen.getByRole('radio', { name: title });
      expect(document.getElementById(radio.getAttribute('aria-describedby')!)?.textContent).toBe(description);
    }
    expect(button('Generate Headshots (6 credits)').disabled).toBe(false);
    expect(screen.queryByText('Running low on credits!')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('credits-card').dataset.low).toBeUndefined();
    fireEvent.click(button('Generate Headshots (6 credits)'));
    expect(onGenerate).toHaveBeenCalledOnce();
  });

  it('is disabled without a background', () => {
    renderStep3({ value: null });
    expect(button('Generate Headshots (6 credits)').disabled).toBe(true);
  });

  it("reads 'Generating...' and is disabled while running", () => {
    renderStep3({ generating: true });
    expect(button('Generating...').disabled).toBe(true);
  });

  it("under 6 credits: 'Insufficient Credits', the orange card with Buy More and the notice", () => {
    renderStep3({ credits: 4 });
    expect(button('Insufficient Credits').disabled).toBe(true);
    const card = screen.getByTestId('credits-card');
    expect(card.dataset.low).toBe('true');
    expect(within(card).getByText('Running low on credits!')).toBeTruthy();
    expect(within(card).getByText('4 credits')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Buy More' }).getAttribute('href')).toBe('/pricing');
    const notice = screen.getByRole('alert');
    expect(
      within(notice).getByText('You need 6 credits to generate headshots, but you only have 4.'),
    ).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Buy More Credits' }).getAttribute('href')).toBe(
      '/pricing',
    );
  });
});

describe('step 1: upload validation messages (docs/product-spec.md §5)', () => {
  it('shows the hints, drops invalid files silently and says how many were uploaded', async () => {
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
    await waitFor(() => expect(mocks.toast.success).toHaveBeenCalledWith('1 file(s) uploaded successfully'));
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
      expect(mocks.toast.error).toHaveBeenCalledWith('Please upload valid image files (max 10MB each)'),
    );
    expect(screen.getByText('Uploaded photos (0/10)')).toBeTruthy();
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
      generation({
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        queue: null,
        headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshot(slot)),
      }),
    ];
    mocks.api.getGeneration.mockImplementation(
      async () => polls.shift() ?? generation({ status: 'succeeded' }),
    );
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
      generation({
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        headshots: [0, 1, 2, 3, 4, 5].map((slot) => headshot(slot)),
      }),
    ];
    mocks.api.getGeneration.mockImplementation(
      async () => polls.shift() ?? generation({ status: 'succeeded' }),
    );
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
    expect(heart.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(mocks.api.setFavorite).toHaveBeenCalledWith('H1', true));

    // Download goes through the download helper with that headshot.
    fireEvent.click(within(cards[2]!).getByRole('button', { name: 'Download headshot 3' }));
    await waitFor(() =>
      expect(mocks.api.downloadHeadshot).toHaveBeenCalledWith(expect.objectContaining({ id: 'H2' })),
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

    await waitFor(() =>
      expect(mocks.toast.error).toHaveBeenCalledWith('Failed to generate headshots. Please try again.', {
        description: 'None of your photos could be used.',
      }),
    );
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

    await waitFor(() =>
      expect(mocks.toast.error).toHaveBeenCalledWith('Failed to generate headshots. Please try again.', {
        description: 'Photo 1 has not finished uploading or has expired.',
      }),
    );
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
